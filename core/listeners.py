"""Observers of a game: subclass ``GameListener`` and override what you need.

A listener hears every move, undo and end of the game it was added to (``Game.add_listener``),
after the game changed; it watches that one game, so ``Game.copy`` does not carry it over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game
    from .move import Move
    from .outcome import Outcome

__all__ = ["GameListener"]


class GameListener:
    """The seeds' GameListener; every hook is a no-op here."""

    def on_move(self, game: Game, move: Move, mark: str) -> None:
        return None

    def on_undo(self, game: Game, move: Move, mark: str) -> None:
        return None

    def on_end(self, game: Game, outcome: Outcome) -> None:
        return None
