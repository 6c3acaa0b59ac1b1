"""``tictactoe solve``, ``analyze``, ``tournament`` and ``play --bot``: output, and clear
errors with a nonzero exit for bad input."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli import main
from cli.engine.analyze import render_analysis
from core import Game, Move, Rules
from core.ai import Verdict
from core.ai.analysis import Analysis, MoveAnalysis

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse and the input checks exit
        code = exc.code if isinstance(exc.code, int) else 1
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def last_json(out: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return data


# -- solve --------------------------------------------------------------------------------


def test_solve_tic_tac_toe(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--rows", "3", "--cols", "3", "--k", "3")
    data = last_json(out)
    assert code == 0
    assert (data["value"], data["result"], data["proven"]) == ("draw", "draw", True)
    assert len(data["best_moves"]) == 9 and data["nodes"] > 0 and data["seconds"] >= 0


def test_solve_a_position_for_the_side_to_move(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--position", "XX./O../...")
    data = last_json(out)
    assert code == 0
    # O to move must block, and still loses: X (the first player) wins
    assert (data["value"], data["result"], data["moves_to_end"]) == ("loss", "first", 4)
    assert data["best_moves"] == [{"row": 0, "col": 2, "layer": 0}]


def test_solve_variants(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "solve", "--rows", "3", "--cols", "4", "--k", "3", "--misere")
    assert last_json(out)["result"] == "second"
    _, out, _ = run(capsys, "solve", "--rows", "4", "--cols", "4", "--k", "3", "--gravity")
    assert last_json(out)["result"] == "first"
    _, out, _ = run(capsys, "solve", "--rows", "3", "--cols", "3", "--layers", "3")
    assert last_json(out)["best_moves"] == [{"row": 1, "col": 1, "layer": 1}]


def test_solve_within_a_budget_says_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "solve", "--rows", "7", "--cols", "7", "--k", "5", "--budget-s", "0.2", "--quiet"
    )
    data = last_json(out)
    assert code == 0 and (data["value"], data["result"], data["proven"]) == (
        "unknown",
        "unknown",
        False,
    )
    assert len(data["best_moves"]) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--position", "XX/OO"], "--position: position 'XX/OO' is 2×2×1"),
        (["--position", "XXX/.../..."], "--position: position 'XXX/.../...' cannot arise"),
        (["--position", "XQ./.../..."], "unknown symbol 'Q'"),
        (
            ["--rows", "4", "--cols", "4", "--gravity", "--position", "X.../..../..../O..."],
            "floating piece",
        ),
        (["--k", "9"], "--k: 9 in a row cannot fit"),
        (["--budget-s", "0"], "--budget-s: seconds must be a positive number"),
        (["--players", "3"], "unrecognized arguments: --players"),
    ],
)
def test_solve_refuses_bad_input_clearly(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "solve", *argv)
    assert code != 0 and out == ""
    assert message in err


@pytest.mark.process
def test_solve_reports_progress_on_stderr_while_it_runs() -> None:
    """A real subprocess, on 7×7 k=5 with a 2.5 s budget (too big to prove): progress
    lines each second, then the JSON saying the value is unknown."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "solve",
            *("--rows", "7", "--cols", "7", "--k", "5", "--budget-s", "2.5"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert (last_json(proc.stdout)["value"], last_json(proc.stdout)["proven"]) == (
        "unknown",
        False,
    )
    progress = [line for line in proc.stderr.splitlines() if line.startswith("solving: ")]
    assert progress and "proving the value" in progress[0]
    assert "nodes" in progress[0] and "positions stored" in progress[0]


# -- analyze ------------------------------------------------------------------------------


def test_analyze_marks_every_empty_cell(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "--position", "XX./OO./...")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("X to move.")
    assert lines[1].split() == ["0", "1", "2"]
    assert lines[2].split() == ["0", "X", "X", "W1"]
    assert lines[3].split() == ["1", "O", "O", "D"]
    assert all(label.startswith("L") for label in lines[4].split()[1:])
    data = last_json(out)
    assert data["turn"] == "X" and data["proven"] is True
    assert data["moves"][0] == {
        "move": {"row": 0, "col": 2, "layer": 0},
        "value": "win",
        "moves_to_end": 1,
        "score": data["moves"][0]["score"],
        "proven": True,
    }


def test_analyze_unproven_moves_show_scores(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "analyze", "--rows", "9", "--cols", "9", "--k", "5", "--budget-s", "0.2"
    )
    assert code == 0
    centre_row = out.splitlines()[6].split()
    assert centre_row[0] == "4" and all(cell[0] in "+-" for cell in centre_row[1:])
    assert last_json(out)["proven"] is False


def test_a_proven_value_without_its_distance_is_a_bare_letter() -> None:
    game = Game.from_position(Rules(3, 3, 3), "XX./OO./...")
    won = MoveAnalysis(Move(0, 2), Verdict.WIN, None, 0)
    lost = MoveAnalysis(Move(1, 2), Verdict.LOSS, None, 0)
    guess = MoveAnalysis(Move(2, 0), Verdict.UNKNOWN, None, -7)
    text = render_analysis(game.rules, Analysis(game.board.text, "X", (won, lost, guess), 1, 0))
    assert text.splitlines()[2].split() == ["0", "X", "X", "W"]
    assert text.splitlines()[3].split() == ["1", "O", "O", "L"]
    assert text.splitlines()[4].split()[:2] == ["2", "-7"]


def test_analyze_json_only_and_3d(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "analyze", "--layers", "2", "--rows", "2", "--cols", "2", "--k", "2", "--json"
    )
    assert code == 0 and len(out.splitlines()) == 1
    assert {m["value"] for m in last_json(out)["moves"]} == {"win"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--position", "XXX/OO./..."], "the game is already over"),
        (["--position", "OO./.../..."], "cannot arise"),
        (["--position", ""], "--position"),
        (["--rows", "0"], "--rows: must be from 1"),
    ],
)
def test_analyze_refuses_bad_input_clearly(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "analyze", *argv)
    assert code != 0 and out == ""
    assert message in err


# -- tournament -----------------------------------------------------------------------


def test_tournament_prints_the_standings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "tournament", "--bots", "random,medium,perfect", "--games", "2", "--seed", "1"
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[1].split() == ["rank", "bot", "played", "wins", "draws", "losses", "points"]
    table = {row.split()[1]: row.split() for row in lines[2:5]}
    played, wins, draws, losses, points = map(int, table["random"][2:])
    assert (played, wins, draws + losses, points) == (4, 0, 4, draws)  # no points for byes
    assert table["perfect"][5] == "0"  # never loses
    assert "random v medium: 0 won" in out and "medium v perfect: 0 won" in out
    # each side of a pair started one of its two games: "won-drawn-lost" for each
    assert re.search(r"medium v perfect: .*\(moving first 0-\d-\d; second 0-\d-\d\)", out)


def test_tournament_says_how_many_perfect_moves_were_proven(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "tournament", "--bots", "random,perfect", "--games", "2")
    assert code == 0 and "perfect: every one of its" in out and "moves proven" in out
    assert "perfect: results thrown away 0 (moving first 0, second 0; of " in out
    # on Connect Four 7×6 the book answers every move of perfect's when it moves first; the
    # second game's perfect moves second, from a lost position no book holds, unproven at first
    code, out, _ = run(
        capsys,
        "tournament",
        *("--bots", "perfect,random", "--games", "2", "--budget-s", "0.01", "--json"),
        *("--audit", ""),
        *("--rows", "6", "--cols", "7", "--k", "4", "--gravity"),
    )
    (proofs,) = last_json(out)["proofs"]
    assert code == 0 and proofs["bot"] == "perfect" and 0 < proofs["unproven"] <= proofs["moves"]


def test_tournament_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tournament", "--bots", "easy,random", "--games", "1", "--json")
    data = last_json(out)
    assert code == 0 and data["standings"][0]["bot"] == "easy"
    assert data["matches"] == [
        {
            "bot": "easy",
            "opponent": "random",
            "wins": 1,
            "draws": 0,
            "losses": 0,
            "as_first": {"wins": 1, "draws": 0, "losses": 0},  # easy is listed first: X
            "as_second": {"wins": 0, "draws": 0, "losses": 0},
        }
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "random,wizard"], "unknown bot level 'wizard' (known: random, easy"),
        (["--bots", "random,random"], "player 'random' is entered twice"),
        (["--bots", "random"], "at least two players"),
        (["--games", "0"], "games per pair must be a whole number ≥ 1, got 0"),
        (["--budget-s", "-2"], "--budget-s"),
    ],
)
def test_tournament_refuses_bad_input_clearly(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "tournament", *argv)
    assert code != 0 and out == ""
    assert message in err


# -- play --bot -----------------------------------------------------------------------


def play_with(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lines: list[str],
    *flags: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    return run(capsys, "play", *flags)


def test_play_against_the_perfect_bot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """X (the keyboard) plays badly; the perfect bot (O) wins."""
    code, out, _ = play_with(
        monkeypatch, capsys, ["0 1", "2 1", "1 0", "2 2", "0 0"], "--bot", "perfect", "--seed", "1"
    )
    assert code == 0
    assert out.count("X to move (row col): ") >= 2
    assert "O to move" not in out  # the bot does not prompt
    assert out.rstrip().splitlines()[-1].startswith("Result: O wins")


def test_the_bot_can_play_first_and_on_gravity_boards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = ("--bot", "medium", "--bot-plays", "X", "--rows", "4", "--cols", "4", "--gravity")
    code, out, _ = play_with(monkeypatch, capsys, ["quit"], *flags)
    assert code == 0
    assert out.index("X plays (row 3,") < out.index("O to move (col): quit")


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (("--bot", "genius"), "invalid choice: 'genius'"),
        (("--bot", "easy", "--bot-plays", "Z"), "--bot-plays: 'Z' is not a player here"),
        (("--bot", "perfect", "--players", "3"), "--bot perfect: the solver plays two-player"),
        (("--bot", "easy", "--connect", "http://127.0.0.1:9/r/abcd", "--watch"), "cannot watch"),
    ],
)
def test_play_bot_flags_are_checked(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    flags: tuple[str, ...],
    message: str,
) -> None:
    code, _, err = play_with(monkeypatch, capsys, [], *flags)
    assert code != 0 and message in err
