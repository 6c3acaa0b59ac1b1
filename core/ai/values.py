"""Game-theoretic values as the solver scores them, and as people read them.

A proven score says who wins and when: ``MATE - end_ply`` for the side to move winning
when the game ends after ``end_ply`` marks in all, its negation for a loss, 0 for a draw.
Scoring by the absolute ply (not the distance from here) makes a score mean the same
wherever the position is met, so the transposition table can share it; preferring the
larger score wins sooner and loses later. Heuristic scores stay strictly inside
``±EVAL_LIMIT``, far from any mate score, so the two never mix up.

A score is trusted only when the search says it is proven (it rests on no horizon guess):
a depth-limited search can return a win score that a deeper one would improve on.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "EVAL_LIMIT",
    "INFINITY",
    "MATE",
    "MATE_BOUND",
    "Verdict",
    "clamp_eval",
    "is_mate",
    "loss_score",
    "verdict_of",
    "win_score",
]

MATE = 1_000_000
MATE_BOUND = MATE // 2  # above any heuristic, below any mate (boards have < 3,000 cells)
EVAL_LIMIT = MATE_BOUND - 1
INFINITY = MATE + 1


class Verdict(StrEnum):
    """The value of a position for the side to move."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    UNKNOWN = "unknown"


def win_score(end_ply: int) -> int:
    return MATE - end_ply


def loss_score(end_ply: int) -> int:
    return -(MATE - end_ply)


def is_mate(score: int) -> bool:
    """A win or a loss score, not a heuristic (whether it is proven is another matter)."""
    return abs(score) >= MATE_BOUND


def clamp_eval(score: int) -> int:
    return max(-EVAL_LIMIT, min(EVAL_LIMIT, score))


def verdict_of(score: int, ply: int, proven: bool) -> tuple[Verdict, int | None]:
    """(verdict, moves to the end) of a score seen at ``ply``; draws have no distance.

    Unproven scores are UNKNOWN, whatever they look like.
    """
    if not proven:
        return Verdict.UNKNOWN, None
    if score >= MATE_BOUND:
        return Verdict.WIN, (MATE - score) - ply
    if score <= -MATE_BOUND:
        return Verdict.LOSS, (MATE + score) - ply
    if score == 0:
        return Verdict.DRAW, None
    raise ValueError(f"a proven score is a win, a loss or 0, got {score}")
