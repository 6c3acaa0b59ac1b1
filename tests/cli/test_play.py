"""``tictactoe play`` driven by scripted stdin, in process and as a real subprocess."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import pytest

from cli import main

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Session:
    code: int
    out: str
    err: str

    @property
    def last_line(self) -> str:
        return self.out.rstrip("\n").splitlines()[-1]


class Play(Protocol):
    def __call__(self, *lines: str, flags: tuple[str, ...] = ()) -> Session: ...


@pytest.fixture
def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Iterator[Play]:
    """Run ``tictactoe play FLAGS`` in process with ``lines`` as its whole stdin."""

    def run(*lines: str, flags: tuple[str, ...] = ()) -> Session:
        monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
        code = main(["play", *flags])
        captured = capsys.readouterr()
        return Session(code, captured.out, captured.err)

    yield run


# -- whole games ---------------------------------------------------------------------------


def test_a_full_game_to_a_win(play: Play) -> None:
    s = play("1 1", "0 0", "0 1", "2 1", "0 2", "2 0", "1 2", "2 2")
    # O completes the bottom row with its fourth mark
    assert s.code == 0 and s.err == ""
    assert (
        s.last_line
        == "Result: O wins with 3 in a row at (row 2, col 0) (row 2, col 1) (row 2, col 2)."
    )
    assert "O plays (row 2, col 2)." in s.out
    final_board = s.out.split("O plays (row 2, col 2).\n")[1]
    assert final_board.splitlines()[:6] == [
        "    0   1   2",
        " 0  O | X | X",
        "   ---+---+---",
        " 1  . | X | X",
        "   ---+---+---",
        " 2 *O*|*O*|*O*",
    ]


def test_a_draw(play: Play) -> None:
    s = play("1 1", "0 0", "2 2", "0 2", "0 1", "2 1", "1 0", "1 2", "2 0")
    assert s.code == 0
    assert s.last_line == "Result: draw, the board is full."
    assert s.out.count("to move (row col): ") == 9


def test_the_transcript_echoes_each_scripted_line_after_its_prompt(play: Play) -> None:
    s = play("1 1", "quit")
    assert s.out.startswith("Tic-Tac-Toe 3×3 k=3: X, then O. Moves are row col; type help")
    assert "X to move (row col): 1 1\nX plays (row 1, col 1).\n" in s.out
    assert "O to move (row col): quit\nO quit; the game is left unfinished.\n" in s.out


def test_a_gravity_game(play: Play) -> None:
    s = play(
        "3",
        "4",
        "3",
        "4",
        "3",
        "4",
        "3",
        flags=("--rows", "6", "--cols", "7", "--k", "4", "--gravity"),
    )
    assert s.code == 0
    assert "X to move (col): 3" in s.out
    # the pieces stack up column 3 from the bottom row
    for row in (5, 4, 3, 2):
        assert f"X plays (row {row}, col 3)." in s.out
    assert s.last_line == (
        "Result: X wins with 4 in a row at "
        "(row 2, col 3) (row 3, col 3) (row 4, col 3) (row 5, col 3)."
    )


def test_a_full_column_is_refused_and_the_turn_stays(play: Play) -> None:
    s = play("0", "0", "0", "1", flags=("--rows", "2", "--cols", "2", "--k", "2", "--gravity"))
    assert "X to move (col): 0\nerror: column a (col 0) is full\nX to move (col): 1\n" in s.out
    assert s.last_line == "Result: X wins with 2 in a row at (row 1, col 0) (row 1, col 1)."


def test_a_3d_game(play: Play) -> None:
    s = play("0 0 0", "1 1 0", "0 0 1", "1 1 1", "0 0 2", flags=("--layers", "3"))
    assert s.code == 0
    assert "X to move (row col layer): 0 0 1\nX plays (row 0, col 0, layer 1).\n" in s.out
    assert s.last_line == (
        "Result: X wins with 3 in a row at "
        "(row 0, col 0, layer 0) (row 0, col 0, layer 1) (row 0, col 0, layer 2)."
    )
    final = s.out.split("X plays (row 0, col 0, layer 2).\n")[1].splitlines()
    # the layers stand side by side, bottom first, the pillar's line marked on each
    assert final[0].split() == ["layer", "0", "(bottom)", "layer", "1", "layer", "2", "(top)"]
    assert final[2].split() == [
        "0",
        "*X*|",
        ".",
        "|",
        ".",
        "0",
        "*X*|",
        ".",
        "|",
        ".",
        "0",
        "*X*|",
        ".",
        "|",
        ".",
    ]


def test_a_3d_gravity_game_takes_row_and_col(play: Play) -> None:
    s = play("1 1", "1 1", "1 1", "quit", flags=("--layers", "3", "--gravity"))
    assert "X to move (row col): 1 1\nX plays (row 1, col 1, layer 0)." in s.out
    assert "O plays (row 1, col 1, layer 1)." in s.out
    assert "X plays (row 1, col 1, layer 2)." in s.out


def test_three_players_take_turns_x_o_a(play: Play) -> None:
    s = play("0 0", "0 1", "0 2", "quit", flags=("--players", "3", "--rows", "4", "--cols", "4"))
    assert s.out.startswith("Tic-Tac-Toe 4×4 k=4 3 players: X, then O, then A.")
    assert [line.split(" plays")[0] for line in s.out.splitlines() if " plays " in line] == [
        "X",
        "O",
        "A",
    ]
    assert "X to move (row col): quit" in s.out


def test_misere_names_the_loser(play: Play) -> None:
    s = play("0 0", "1 1", "0 1", "2 2", "0 2", flags=("--misere",))
    assert s.last_line == (
        "Result: O wins: X completed 3 in a row at "
        "(row 0, col 0) (row 0, col 1) (row 0, col 2) (misère)."
    )


# -- undo, help, quit, end of input --------------------------------------------------------


def test_undo_takes_back_the_last_move(play: Play) -> None:
    s = play("1 1", "0 0", "undo", "2 2", "quit")
    assert "X to move (row col): undo\nTook back O's move at (row 0, col 0).\n" in s.out
    after_undo = s.out.split("Took back O's move at (row 0, col 0).\n")[1]
    assert after_undo.splitlines()[1:6] == [  # X's move is the last one again
        " 0  . | . | .",
        "   ---+---+---",
        " 1  . |[X]| .",
        "   ---+---+---",
        " 2  . | . | .",
    ]
    assert "O to move (row col): 2 2\nO plays (row 2, col 2)." in after_undo  # O again


def test_undo_with_nothing_played(play: Play) -> None:
    s = play("undo", "u", "q")
    assert s.out.count("error: there is no move to take back") == 2
    assert s.code == 0


def test_redo_plays_the_taken_back_moves_again(play: Play) -> None:
    s = play("1 1", "0 0", "undo", "undo", "redo", "redo", "quit")
    assert "Took back O's move at (row 0, col 0).\n" in s.out
    assert "Took back X's move at (row 1, col 1).\n" in s.out
    after = s.out.split("X to move (row col): redo\n")[1]
    assert after.startswith("X plays (row 1, col 1) again.\n")
    assert "O to move (row col): redo\nO plays (row 0, col 0) again.\n" in after
    final_board = after.split("O plays (row 0, col 0) again.\n")[1].splitlines()[1:6]
    assert final_board == [
        " 0 [O]| . | .",
        "   ---+---+---",
        " 1  . | X | .",
        "   ---+---+---",
        " 2  . | . | .",
    ]
    assert s.last_line == "X quit; the game is left unfinished."


def test_a_new_move_clears_redo(play: Play) -> None:
    s = play("1 1", "undo", "0 0", "r", "redo", "q")
    assert s.out.count("error: there is no taken-back move to play again") == 2
    assert "X plays (row 0, col 0).\n" in s.out and "again." not in s.out
    assert s.code == 0


def test_help(play: Play) -> None:
    s = play("help", "quit", flags=("--gravity", "--rows", "6", "--cols", "7", "--k", "4"))
    assert "Rules: 6×7 k=4 gravity." in s.out
    assert "Gravity: name a column; the piece drops to the lowest free row." in s.out
    assert "Commands: undo or u" in s.out and "redo or r" in s.out


def test_quit_ends_without_a_result(play: Play) -> None:
    s = play("1 1", "quit")
    assert s.code == 0
    assert s.last_line == "O quit; the game is left unfinished."
    assert "Result:" not in s.out


def test_end_of_input_before_the_end_exits_1(play: Play) -> None:
    s = play("1 1", "0 0")
    assert s.code == 1
    assert s.err == "tictactoe: error: the input ended before the game did (X to move)\n"
    assert "Result:" not in s.out


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("5 1", "row 5, col 1 is off the 3×3 board (rows 0 to 2, cols 0 to 2)"),
        ("-1 0", "row -1, col 0 is off the 3×3 board (rows 0 to 2, cols 0 to 2)"),
        ("1 1", "b2 (row 1, col 1) is taken"),
        ("0 x", "col must be a whole number, got 'x'"),
        ("1.5 0", "row must be a whole number, got '1.5'"),
        ("1", "a move here is two whole numbers (row col), got '1'"),
        ("0 1 2", "a move here is two whole numbers (row col), got '0 1 2'"),
        (
            "resign",
            "unknown command 'resign': "
            "type a move as two whole numbers (row col), or undo, redo, help, quit",
        ),
    ],
)
def test_bad_input_gets_the_message_and_the_same_player_again(
    play: Play, typed: str, message: str
) -> None:
    s = play("1 1", typed, "0 0", "quit")
    assert (
        f"O to move (row col): {typed}\nerror: {message}\nO to move (row col): 0 0\nO plays"
        in s.out
    )


def test_blank_lines_just_ask_again(play: Play) -> None:
    s = play("", "  ", "1 1", "quit")
    assert s.out.count("X to move (row col): ") == 3
    assert "error" not in s.out


def test_bad_rules_flags_name_the_flag(play: Play) -> None:
    with pytest.raises(SystemExit, match="tictactoe: error: --k: 4 in a row cannot fit"):
        play(flags=("--k", "4"))


# -- the real command ------------------------------------------------------------------------


def run_cli(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


@pytest.mark.process
def test_the_command_plays_a_scripted_game() -> None:
    done = run_cli(stdin="0 0\n1 1\n0 1\n2 2\n0 2\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(
        "Result: X wins with 3 in a row at (row 0, col 0) (row 0, col 1) (row 0, col 2)."
    )


@pytest.mark.process
def test_the_command_exits_1_when_input_runs_out() -> None:
    done = run_cli("--gravity", "--rows", "6", "--cols", "7", "--k", "4", stdin="3\n")
    assert done.returncode == 1
    assert done.stderr == "tictactoe: error: the input ended before the game did (O to move)\n"
