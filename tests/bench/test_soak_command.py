"""``tictactoe soak`` as a command: it exits with the status of the check that failed (on the
report of synthetic games), its help lists every status, and it refuses bad flags and a
target that does not answer with a reason in one line."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

import bench.soak
from bench.load.launch import free_port
from bench.soak.game import GameLog
from cli import main
from tests.bench.soak_games import game_log, played, report_of, stored


def _without(cell_index: int) -> GameLog:
    acks, record = played(25)
    cells = [c for i, c in enumerate(record.cells) if i != cell_index]
    return game_log(1, acks, stored(cells, dict(record.versions or {})))


@pytest.mark.parametrize(
    ("games", "code", "said"),
    [
        ((game_log(1, *played(25)),), 0, "OK: all 10 checks passed"),
        ((_without(3),), 3, "FAILED: lost (exit 3)"),
    ],
)
def test_the_command_exits_with_the_failed_check_s_status(
    games: tuple[GameLog, ...],
    code: int,
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The run itself is swapped for the report of the synthetic games: a real soak does not
    # lose moves on demand (tests/bench/test_soak_run.py runs the real one).
    monkeypatch.setattr(bench.soak, "run_soak", lambda options: report_of(*games))
    out = tmp_path / "soak.json"
    assert main(["soak", "--json", str(out)]) == code
    written = json.loads(out.read_text())
    assert written["ok"] is (code == 0) and written["exit_status"] == code
    assert capsys.readouterr().out.rstrip().endswith(said)


def test_the_help_lists_every_check_s_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["soak", "--help"])
    text = capsys.readouterr().out
    for name, code, _ in bench.soak.CHECKS:
        assert f"  {code:>2}  {name}: " in text
    statuses = [code for _, code, _ in bench.soak.CHECKS]
    assert len(set(statuses)) == len(statuses) and not {0, 1, 2} & set(statuses)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--servers", "1"], "--servers must be at least 2"),
        (["--games", "0"], "--games must be at least 1"),
        (["--target", "http://10.0.0.1:8000"], "loopback"),
        (["--target", "http://127.0.0.1:8000"], "--kills needs servers the soak starts"),
        (
            ["--target", "http://127.0.0.1:8000", "--kills", "0", "--terms", "0"],
            "--redis-restarts needs servers",
        ),
        (["--redis-url", "redis://127.0.0.1:1/0"], "--redis-url goes with --target"),
        (["--storm", "-1"], "--storm must be 0 or more"),
        (
            ["--target", "http://127.0.0.1:8000", "--affinity", "--kills", "0"],
            "--affinity puts HAProxy before servers the soak starts",
        ),
        (["--affinity", "--storm", "10"], "--affinity is for the soak, not --storm"),
    ],
)
def test_bad_flags_are_refused_with_a_reason(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["soak", *argv]) == 2
    assert said in capsys.readouterr().err


def test_a_negative_count_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["soak", "--kills", "-1"])
    assert exited.value.code == 2
    assert "must be 0 or more, got -1" in capsys.readouterr().err


def test_a_target_that_does_not_answer_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The soak waits TARGET_TIMEOUT (10 s) for a target to answer; what is said when it
    # never does is the same after a shorter wait.
    monkeypatch.setattr(importlib.import_module("bench.soak.run"), "TARGET_TIMEOUT", 0.5)
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    argv = ["--target", url, "--kills", "0", "--terms", "0", "--redis-restarts", "0"]
    assert main(["soak", *argv, "--redis-stops", "0", "--duration", "1"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"tictactoe soak: error: /readyz not 200 within 0.5 s: {url}"]
