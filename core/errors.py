"""The engine's error root and its typed subclasses, each with a stable code.

Codes are part of the wire protocol (rooms and the server pass them through), so they
never change once published; messages are lowercase and quote the bad input.
"""

from __future__ import annotations

__all__ = [
    "CellOccupied",
    "ColumnFull",
    "GameError",
    "GameOver",
    "MalformedMove",
    "NotYourTurn",
    "NothingToRedo",
    "NothingToUndo",
    "OutOfBounds",
    "RulesError",
]


class GameError(ValueError):
    """Root of every error the engine raises; ``code`` is stable, ``str(err)`` is for humans."""

    code = "game_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RulesError(GameError):
    """Rules that cannot be played; ``field`` names the offending rule."""

    code = "invalid_rules"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message


class MalformedMove(GameError):
    code = "malformed_move"


class OutOfBounds(GameError):
    code = "out_of_bounds"


class CellOccupied(GameError):
    code = "occupied"


class ColumnFull(GameError):
    code = "column_full"


class NotYourTurn(GameError):
    code = "not_your_turn"


class GameOver(GameError):
    code = "game_over"


class NothingToUndo(GameError):
    code = "nothing_to_undo"


class NothingToRedo(GameError):
    """``redo`` with no taken-back move to replay (none taken back, or a new move since)."""

    code = "nothing_to_redo"
