"""``tictactoe book``: build (resumable, with a partial book on --stop-after-s, of one side
or both), show, check, add; and clear errors for bad input, a damaged file, or progress of
another side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.ai.book import decode
from tests.cli.test_solver_commands import last_json, run

SMALL = ("--rows", "4", "--cols", "4", "--k", "4", "--gravity")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from cli import main

    out = tmp_path_factory.mktemp("book") / "c4-4x4.book"
    assert main(["book", "build", *SMALL, "--leaf-nodes", "40", "--out", str(out)]) == 0
    return out


def test_build_writes_a_complete_checked_book(built: Path) -> None:
    data = decode(built.read_bytes())
    assert data.info["complete"] is True and data.info["leaf_nodes"] == 40
    assert data.info["side"] == "both"
    assert data.info["strategies"] == {"first": True, "second": True}
    assert len(data.entries) > 100 and data.info["plies"] > 4
    progress = json.loads(built.with_name(built.name + ".progress").read_text())
    assert len(progress["done"]) == len(data.entries) and progress["proven"] == {}


def test_a_second_build_resumes_from_the_progress(
    capsys: pytest.CaptureFixture[str], built: Path
) -> None:
    code, out, err = run(capsys, "book", "build", *SMALL, "--leaf-nodes", "40", "--out", str(built))
    assert code == 0 and "book: resuming from" in err
    assert last_json(out)["entries"] == len(decode(built.read_bytes()).entries)


def test_progress_saved_without_a_side_resumes_as_both(
    capsys: pytest.CaptureFixture[str], built: Path, tmp_path: Path
) -> None:
    saved = json.loads(built.with_name(built.name + ".progress").read_text())
    assert saved.pop("side") == "both"
    progress = tmp_path / "old.progress"
    progress.write_text(json.dumps(saved))
    argv = ("--leaf-nodes", "40", "--out", str(tmp_path / "b.book"), "--progress", str(progress))
    code, out, err = run(capsys, "book", "build", *SMALL, *argv)
    assert code == 0 and "book: resuming from" in err and "(side both)" in err
    assert last_json(out)["entries"] == len(decode(built.read_bytes()).entries)


def test_side_first_builds_the_first_player_s_strategy_alone(
    capsys: pytest.CaptureFixture[str], built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "first.book"
    argv = ("book", "build", *SMALL, "--leaf-nodes", "40", "--out", str(out))
    code, stdout, _ = run(capsys, *argv, "--side", "first")
    data = decode(out.read_bytes())
    assert code == 0 and last_json(stdout)["side"] == "first"
    assert data.info["side"] == "first" and data.info["complete"] is True
    assert data.info["strategies"] == {"first": True, "second": False}
    assert 0 < len(data.entries) < len(decode(built.read_bytes()).entries)
    progress = json.loads(out.with_name(out.name + ".progress").read_text())
    assert progress["side"] == "first"


@pytest.mark.parametrize("other", ["both", "second"])
def test_a_build_refuses_the_progress_of_another_side(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, other: str
) -> None:
    out = tmp_path / "first.book"
    argv = ("book", "build", *SMALL, "--leaf-nodes", "40", "--out", str(out))
    code, _, _ = run(capsys, *argv, "--side", "first", "--stop-after-s", "0.000001")
    assert code == 0
    book, progress = out.read_bytes(), out.with_name(out.name + ".progress").read_bytes()
    code, _, err = run(capsys, *argv, *(("--side", other) if other == "second" else ()))
    assert code == 2
    assert f"is of a build of side 'first', not '{other}'" in err and "give --side first" in err
    assert "resuming" not in err
    # nothing written: the partial book and the progress are as they were
    assert out.read_bytes() == book
    assert out.with_name(out.name + ".progress").read_bytes() == progress


def test_stop_after_writes_a_partial_book(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "partial.book"
    argv = ("book", "build", *SMALL, "--leaf-nodes", "40", "--out", str(out))
    code, _, err = run(capsys, *argv, "--stop-after-s", "0.000001")
    assert code == 0 and "--stop-after-s reached" in err
    assert decode(out.read_bytes()).info["complete"] is False
    code, stdout, err = run(capsys, *argv)
    assert code == 0 and "book: resuming from" in err and last_json(stdout)["complete"] is True


def test_show_and_check(capsys: pytest.CaptureFixture[str], built: Path) -> None:
    code, out, _ = run(capsys, "book", "show", str(built))
    data = last_json(out)
    assert code == 0 and data["rules"] == "4×4 k=4 gravity" and data["positions_by_ply"]["0"] == 1
    code, out, _ = run(capsys, "book", "check", str(built), "--sample", "5")
    assert code == 0 and last_json(out) == {"checked": 5, "wrong": 0}


def test_add_a_known_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "known.book"
    argv = ("book", "add", "--rows", "3", "--cols", "3", "--k", "3", "--out", str(out))
    # the command trusts its source (here made up): a line for a board beyond the solver
    line = ("--line", "4,1,0", "--value", "win", "--source", "made up")
    code, stdout, _ = run(capsys, *argv, *line)
    data: dict[str, Any] = last_json(stdout)
    assert code == 0 and data["entries"] == 4 and data["known"][0]["source"] == "made up"
    code, _, err = run(capsys, *argv, "--line", "4", "--value", "draw", "--source", "x")
    assert code == 2 and "--line must end where the side to move loses" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["build", *SMALL, "--leaf-nodes", "0"], "--leaf-nodes must be 1 or more, got 0"),
        (["build", "--rows", "3", "--cols", "3"], "no shipped book for 3×3 k=3: give --out"),
        (["show", "/nonexistent/x.book"], "cannot read /nonexistent/x.book"),
        (
            ["add", *SMALL, "--line", "9", "--value", "win", "--source", "x", "--out", "/tmp/x"],
            "--line: column 9 cannot take a mark now",
        ),
    ],
)
def test_bad_input_exits_with_why(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, "book", *argv)
    assert code == 2 and message in err


def test_a_damaged_book_is_refused(
    capsys: pytest.CaptureFixture[str], built: Path, tmp_path: Path
) -> None:
    damaged = tmp_path / "damaged.book"
    data = built.read_bytes()
    damaged.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    code, _, err = run(capsys, "book", "show", str(damaged))
    assert code == 2 and "the book's checksum does not match its contents" in err
