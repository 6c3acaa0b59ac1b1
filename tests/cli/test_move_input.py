"""Parsing what a player types into commands, for every kind of board."""

from __future__ import annotations

import re

import pytest

from cli.terminal.move_input import (
    Help,
    PlayMove,
    Quit,
    Redo,
    Undo,
    help_text,
    move_fields,
    parse_command,
    prompt,
)
from core import MalformedMove, MoveRequest, Rules

FLAT = Rules()
GRAVITY = Rules(rows=6, cols=7, k=4, gravity=True)
CUBE = Rules(rows=4, cols=4, layers=4)
CUBE_GRAVITY = Rules(rows=4, cols=4, layers=4, gravity=True)


@pytest.mark.parametrize(
    ("rules", "fields", "typed", "request_"),
    [
        (FLAT, ("row", "col"), "1 2", MoveRequest(row=1, col=2)),
        (GRAVITY, ("col",), "6", MoveRequest(col=6)),
        (CUBE, ("row", "col", "layer"), "3 2 1", MoveRequest(row=3, col=2, layer=1)),
        (CUBE_GRAVITY, ("row", "col"), "0 3", MoveRequest(row=0, col=3)),
    ],
)
def test_each_board_takes_its_own_coordinates(
    rules: Rules, fields: tuple[str, ...], typed: str, request_: MoveRequest
) -> None:
    assert move_fields(rules) == fields
    assert prompt(rules, "O") == f"O to move ({' '.join(fields)}): "
    assert parse_command(typed, rules) == PlayMove(request_)


@pytest.mark.parametrize("typed", ["1,2", " 1 , 2 ", "+1 2", "1\t2\n"])
def test_spaces_commas_and_signs(typed: str) -> None:
    assert parse_command(typed, FLAT) == PlayMove(MoveRequest(row=1, col=2))


def test_negative_numbers_reach_the_engine_which_names_them() -> None:
    assert parse_command("-1 0", FLAT) == PlayMove(MoveRequest(row=-1, col=0))


@pytest.mark.parametrize(
    ("typed", "command"),
    [
        ("undo", Undo()),
        ("U", Undo()),
        ("redo", Redo()),
        ("R", Redo()),
        ("help", Help()),
        ("?", Help()),
        ("H", Help()),
        ("QUIT", Quit()),
        ("q", Quit()),
        ("exit", Quit()),
    ],
)
def test_command_words(typed: str, command: object) -> None:
    assert parse_command(typed, FLAT) == command


def test_a_blank_line_asks_for_nothing() -> None:
    assert parse_command("   \n", FLAT) is None


@pytest.mark.parametrize(
    ("rules", "typed", "message"),
    [
        (GRAVITY, "1 2", "a move here is one whole number (col), got '1 2'"),
        (CUBE, "1 2", "a move here is three whole numbers (row col layer), got '1 2'"),
        (FLAT, "1 ½", "col must be a whole number, got '½'"),
        (FLAT, "undo 2", "unknown command 'undo 2'"),
        (FLAT, "x1 1", "unknown command 'x1 1'"),
    ],
)
def test_bad_lines_raise_malformed_move(rules: Rules, typed: str, message: str) -> None:
    with pytest.raises(MalformedMove, match=re.escape(message)) as err:
        parse_command(typed, rules)
    assert err.value.code == "malformed_move"


def test_help_explains_the_variant() -> None:
    assert "Complete 3 in a row (across, down or diagonally) to win." in help_text(FLAT)
    assert "and you lose." in help_text(Rules(misere=True))
    assert "through the layers" in help_text(CUBE)
    assert "lowest free layer of that pillar" in help_text(CUBE_GRAVITY)
    assert "drops to the lowest free row" in help_text(GRAVITY)
