"""Knockout (single elimination): a seeded bracket, and who goes through each match.

The players are seeded by rating, best first (on equal ratings, the order they entered). The
bracket has the next power of two's ``size`` of places, filled in the standard order (1 v N,
2 v N-1, ..., with 1 and 2 in opposite halves, 1 to 4 in different quarters, and so on), so
that when the higher seed always wins, round ``r``'s matches pair seeds adding up to
``size / 2 ** (r - 1) + 1``. Places beyond the players are **byes**, which fall to the top
seeds: each goes through the first round without a game.

A **match** is one game, the higher seed playing X. A drawn game is settled by the rule
chosen at creation (``DRAW_RULES``): ``replay`` plays it again with colours swapped until it
is decided, at most ``MATCH_GAMES`` games, after which the higher seed goes through;
``higher_seed`` sends the higher seed through at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .round_robin import TournamentError

__all__ = [
    "DRAW_RULES",
    "HIGHER_SEED",
    "MATCH_GAMES",
    "REPLAY",
    "Decision",
    "InvalidDrawRule",
    "Match",
    "bracket_size",
    "check_draw_rule",
    "decide",
    "first_round",
    "rounds_of",
    "seed_order",
    "seeded",
]

REPLAY = "replay"
HIGHER_SEED = "higher_seed"
DRAW_RULES = (REPLAY, HIGHER_SEED)
MATCH_GAMES = 4
"""The most games a match plays under ``replay``: a fourth draw sends the higher seed on."""


class InvalidDrawRule(TournamentError):
    code = "invalid_draw_rule"


def check_draw_rule(rule: object) -> str:
    if rule not in DRAW_RULES:
        raise InvalidDrawRule(
            f"a drawn knockout game is settled by {' or '.join(map(repr, DRAW_RULES))}, "
            f"not {rule!r:.40}"
        )
    assert isinstance(rule, str)
    return rule


def seeded(players: Sequence[str], ratings: Mapping[str, float]) -> tuple[str, ...]:
    """``players`` best rated first; an unrated player counts as ``ratings``' missing value
    (the caller's default), equal ratings keep the order given."""
    order = {name: i for i, name in enumerate(players)}
    return tuple(sorted(players, key=lambda name: (-ratings[name], order[name])))


def bracket_size(players: int) -> int:
    """The places of a bracket for ``players`` (2 or more): the next power of two."""
    if players < 2:
        raise TournamentError(f"a knockout needs at least two players, got {players}")
    return 1 << (players - 1).bit_length()


def rounds_of(players: int) -> int:
    return bracket_size(players).bit_length() - 1


def seed_order(size: int) -> list[int]:
    """The seeds (from 1) in bracket order for ``size`` places: [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


@dataclass(frozen=True, slots=True)
class Match:
    """A match of the first round: ``high`` the higher seed; ``low`` None for a bye."""

    high: str
    low: str | None


def first_round(seeds: Sequence[str]) -> list[Match]:
    """The first round's matches, in bracket order, for ``seeds`` (best first)."""
    size = bracket_size(len(seeds))
    order = seed_order(size)
    matches = []
    for j in range(0, size, 2):
        a, b = sorted(order[j : j + 2])
        matches.append(Match(seeds[a - 1], seeds[b - 1] if b <= len(seeds) else None))
    return matches


@dataclass(frozen=True, slots=True)
class Decision:
    """A match's state: its ``winner``, or the ``next_game`` (plays X, plays O) to play."""

    winner: str | None = None
    next_game: tuple[str, str] | None = None


def decide(
    high: str, low: str, played: Sequence[tuple[str, str, str | None]], draw_rule: str
) -> Decision:
    """Where a match between ``high`` (the higher seed) and ``low`` stands after ``played``:
    its games so far as (plays X, plays O, the winner or None for a draw), every one with a
    result."""
    if not played:
        return Decision(next_game=(high, low))
    first, second, winner = played[-1]
    if winner is not None:
        return Decision(winner=winner)
    if draw_rule == HIGHER_SEED or len(played) >= MATCH_GAMES:
        return Decision(winner=high)
    return Decision(next_game=(second, first))
