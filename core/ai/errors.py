"""Typed errors of the bots, the solver and the analysis; each has a stable code."""

from __future__ import annotations

from ..errors import GameError

__all__ = ["BadBudget", "UnknownBot", "UnsupportedGame"]


class UnknownBot(GameError):
    """A difficulty level nobody defined; the message lists the known ones."""

    code = "unknown_bot"


class BadBudget(GameError):
    """A search budget that cannot be honoured (negative, zero, not a number)."""

    code = "invalid_budget"


class UnsupportedGame(GameError):
    """Rules a search cannot handle (the solver plays two-player games only)."""

    code = "unsupported_game"
