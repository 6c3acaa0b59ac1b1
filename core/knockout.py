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
    "MatchState",
    "PlayedGame",
    "bracket",
    "bracket_size",
    "check_draw_rule",
    "decide",
    "first_round",
    "rounds_of",
    "seed_order",
    "seeded",
    "stages",
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


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game of a knockout, as ``bracket`` reads it: ``done`` once it has a result,
    ``winner`` None for a draw."""

    round: int
    match: int
    first: str
    second: str
    done: bool
    winner: str | None = None


@dataclass(frozen=True, slots=True)
class MatchState:
    """One match of the bracket: ``high`` the higher seed and ``low`` (None: not known yet,
    or a bye in the first round), the indexes of its ``games`` in those given, its
    ``winner`` once decided, else the ``next_game`` due (None while one is being played)."""

    round: int
    index: int
    high: str | None
    low: str | None
    games: tuple[int, ...]
    winner: str | None
    next_game: tuple[str, str] | None
    bye: bool


def bracket(
    seeds: Sequence[str], games: Sequence[PlayedGame], draw_rule: str
) -> list[list[MatchState]]:
    """Every round's matches as they stand after ``games``: round ``r + 1``'s match ``j``
    is between the winners of round ``r``'s matches ``2j`` and ``2j + 1``."""
    place = {name: i for i, name in enumerate(seeds)}
    by_match: dict[tuple[int, int], list[int]] = {}
    for i, game in enumerate(games):
        by_match.setdefault((game.round, game.match), []).append(i)
    rounds: list[list[MatchState]] = []
    entrants: list[tuple[str | None, str | None, bool]] = [
        (m.high, m.low, m.low is None) for m in first_round(seeds)
    ]
    for number in range(1, rounds_of(len(seeds)) + 1):
        matches = []
        for j, (a, b, bye) in enumerate(entrants):
            present = sorted((p for p in (a, b) if p is not None), key=place.__getitem__)
            high = present[0] if present else None
            low = present[1] if len(present) > 1 else None
            mine = tuple(by_match.get((number, j), ()))
            winner: str | None = None
            next_game: tuple[str, str] | None = None
            if bye:
                winner = high
            elif high is not None and low is not None and all(games[i].done for i in mine):
                played = [(games[i].first, games[i].second, games[i].winner) for i in mine]
                decision = decide(high, low, played, draw_rule)
                winner, next_game = decision.winner, decision.next_game
            matches.append(MatchState(number, j, high, low, mine, winner, next_game, bye))
        rounds.append(matches)
        if len(matches) == 1:
            break
        entrants = [
            (matches[j].winner, matches[j + 1].winner, False) for j in range(0, len(matches), 2)
        ]
    return rounds


def stages(rounds: Sequence[Sequence[MatchState]]) -> dict[str, int]:
    """How far each player has come: the round of their last match, one past the last round
    for the champion."""
    reached: dict[str, int] = {}
    for matches in rounds:
        for m in matches:
            for player in (m.high, m.low):
                if player is not None:
                    reached[player] = m.round
            if m.winner is not None and m.round == len(rounds):
                reached[m.winner] = m.round + 1
    return reached
