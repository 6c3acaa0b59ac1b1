"""Typed errors: one root, and stable codes that the wire protocol passes through."""

from __future__ import annotations

import core
from core import errors


def test_codes_are_stable() -> None:
    assert {
        cls.__name__: cls.code
        for cls in (
            errors.GameError,
            errors.RulesError,
            errors.MalformedMove,
            errors.OutOfBounds,
            errors.CellOccupied,
            errors.ColumnFull,
            errors.NotYourTurn,
            errors.GameOver,
            errors.NothingToUndo,
            errors.NothingToRedo,
        )
    } == {
        "GameError": "game_error",
        "RulesError": "invalid_rules",
        "MalformedMove": "malformed_move",
        "OutOfBounds": "out_of_bounds",
        "CellOccupied": "occupied",
        "ColumnFull": "column_full",
        "NotYourTurn": "not_your_turn",
        "GameOver": "game_over",
        "NothingToUndo": "nothing_to_undo",
        "NothingToRedo": "nothing_to_redo",
    }


def test_every_error_is_a_game_error_and_a_value_error() -> None:
    for name in errors.__all__:
        cls = getattr(errors, name)
        assert issubclass(cls, core.GameError)
        assert issubclass(cls, ValueError)
        assert getattr(core, name) is cls  # re-exported by the package


def test_message_and_rules_field() -> None:
    err = errors.OutOfBounds("row 9, col 0 is off the 3×3 board")
    assert err.message == str(err) == "row 9, col 0 is off the 3×3 board"
    rules_err = errors.RulesError("k", "must be from 0 to 19, got 25")
    assert (rules_err.field, rules_err.reason) == ("k", "must be from 0 to 19, got 25")
    assert str(rules_err) == "k: must be from 0 to 19, got 25"
