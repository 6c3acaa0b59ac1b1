"""Bot moves off the event loop: a picklable job in, a move out, nothing shared.

A room must not wait on a search. ``BotJob`` carries everything a bot needs as plain,
picklable values (the game encoded by ``core.codec``, the level, seed and budget), and
``run_bot_job`` is a top-level pure function, so a server can run it in a thread or a
process pool::

    move = await loop.run_in_executor(pool, run_bot_job, BotJob.of(game, "hard", seed=1))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..codec import decode, encode
from ..game import Game
from ..move import Move
from .budget import DEFAULT_BUDGET, Budget, as_budget
from .factory import make_bot

__all__ = ["BotAnswer", "BotJob", "answer_bot_job", "run_bot_job"]


@dataclass(frozen=True, slots=True)
class BotJob:
    game: dict[str, Any]  # core.codec.encode(game)
    level: str
    seed: int | None = None
    budget: Budget = DEFAULT_BUDGET

    @classmethod
    def of(
        cls,
        game: Game,
        level: str,
        *,
        seed: int | None = None,
        budget: Budget | float | None = None,
    ) -> BotJob:
        return cls(encode(game), level, seed, as_budget(budget))


def run_bot_job(job: BotJob) -> Move:
    """The move the job's bot chooses in the job's game (raises the bot's typed errors)."""
    return make_bot(job.level, seed=job.seed, budget=job.budget).choose(decode(job.game))


@dataclass(frozen=True, slots=True)
class BotAnswer:
    """The bot's move, and whether it was proven best: None for the levels that prove
    nothing; False when ``perfect`` found no proof within its budget and played its best
    guess (core.ai.perfect)."""

    move: Move
    proven: bool | None = None


def answer_bot_job(job: BotJob) -> BotAnswer:
    """``run_bot_job``, saying whether the move was proven."""
    bot = make_bot(job.level, seed=job.seed, budget=job.budget)
    move = bot.choose(decode(job.game))
    unproven = getattr(bot, "unproven_moves", None)  # only a proving bot counts them
    return BotAnswer(move, None if unproven is None else unproven == 0)
