"""Bots by difficulty level, all made the same way: ``make_bot("medium", seed=7)``."""

from __future__ import annotations

import random
from collections.abc import Callable

from .bot import Bot, RandomBot
from .budget import Budget, as_budget
from .errors import UnknownBot
from .heuristic import EASY, MEDIUM, HeuristicBot
from .mcts import MctsBot
from .perfect import PerfectBot

__all__ = ["LEVELS", "make_bot"]

_MAKERS: dict[str, Callable[[random.Random, Budget], Bot]] = {
    "random": lambda rng, budget: RandomBot(rng),
    "easy": lambda rng, budget: HeuristicBot(EASY, rng),
    "medium": lambda rng, budget: HeuristicBot(MEDIUM, rng),
    "hard": MctsBot,
    "perfect": PerfectBot,
}

LEVELS: tuple[str, ...] = tuple(_MAKERS)
"""The difficulty levels, weakest first."""


def make_bot(level: str, *, seed: int | None = None, budget: Budget | float | None = None) -> Bot:
    """A bot of ``level``; ``seed`` fixes its random choices, ``budget`` (a Budget or
    seconds, default one second) bounds its thinking per move (hard and perfect)."""
    maker = _MAKERS.get(level) if isinstance(level, str) else None
    if maker is None:
        raise UnknownBot(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
    return maker(random.Random(seed), as_budget(budget))
