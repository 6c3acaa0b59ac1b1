"""Swiss pairing: each round, players of equal score meet, nobody twice, colours balanced.

A Swiss plays a set number of rounds (fewer than the players), each paired from the standings
so far (docs/tournaments.md, "Swiss"). ``pair_round`` takes the players in seed order (the
order they entered) with their score, their colours so far and their opponents, and ranks them
by score, then seed. Its pairing is, among all ways to pair the round, one that has in turn:

1. the fewest **repeat pairings** (none while any pairing without one exists);
2. the fewest **colour conflicts**: two players who must both have the same colour, "must"
   meaning they played it in both of their last two games, or their balance (games as X
   minus games as O) is already ±2;
3. the smallest sum of **score differences** across its games: players meet their own score
   group, and an odd group's lowest placed floats down to the next one;
4. among those, the **Dutch order**: in a score group of ``g``, the top half meets the bottom
   half, the first of the top half the first of the bottom half (``i`` meets ``i + g // 2``).

With an odd count the **bye** goes to the lowest placed player who has not had one, unless
giving it to another one without a bye makes fewer repeats or colour conflicts (then the lowest
of those). Rounds below the player count mean nobody ever has two byes.

**Colours** within a game: a player who must have a colour gets it (on a conflict, the higher
placed); else the lower balance plays X; on equal balance, the one who played O last plays X;
else the higher placed alternates from their last colour, and in the first round the higher
placed plays X on the first, third, ... board and O on the others.

The search is exact (branch and bound, best found first) up to ``SEARCH_BUDGET`` steps a
round, far more than 32 players need in practice; past it, the best pairing found so far is
played, which is still complete.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .round_robin import TournamentError

__all__ = [
    "SEARCH_BUDGET",
    "InvalidRounds",
    "SwissPlayer",
    "SwissRound",
    "check_rounds",
    "colour_due",
    "pair_round",
]

SEARCH_BUDGET = 5_000
"""Search steps per way of giving the bye before the best pairing found so far is taken."""

_REPEAT = 1_000_000
_CONFLICT = 10_000
# A game's cost: repeat * _REPEAT + conflict * _CONFLICT + score difference. A round has at
# most 16 games, and a score difference at most 3 a round for 31 rounds: the sums never carry.


class InvalidRounds(TournamentError):
    code = "invalid_rounds"


def check_rounds(rounds: object, players: int) -> int:
    """``rounds`` for a Swiss of ``players``: a whole number from 1 to ``players - 1``."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds < players:
        raise InvalidRounds(
            f"a Swiss of {players} players plays from 1 to {players - 1} rounds, not {rounds!r:.40}"
        )
    return rounds


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    name: str
    score: int = 0
    colours: str = ""
    """Their games' colours in the order played, "X" or "O" each (a bye adds none)."""
    opponents: frozenset[str] = field(default_factory=frozenset)
    had_bye: bool = False

    @property
    def balance(self) -> int:
        return self.colours.count("X") - self.colours.count("O")


@dataclass(frozen=True, slots=True)
class SwissRound:
    games: tuple[tuple[str, str], ...]
    """(plays X, plays O), the best placed board first."""
    bye: str | None = None


def _other(colour: str) -> str:
    return "O" if colour == "X" else "X"


def colour_due(player: SwissPlayer) -> str | None:
    """The colour ``player`` must have next, if any: not a third of a colour running, and a
    balance never past ±2."""
    colours = player.colours
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return _other(colours[-1])
    if player.balance >= 2:
        return "O"
    if player.balance <= -2:
        return "X"
    return None


def _cost(a: SwissPlayer, b: SwissPlayer) -> int:
    due = colour_due(a)
    return (
        (_REPEAT if b.name in a.opponents else 0)
        + (_CONFLICT if due is not None and due == colour_due(b) else 0)
        + abs(a.score - b.score)
    )


def _colours(high: SwissPlayer, low: SwissPlayer, board: int) -> tuple[str, str]:
    """(plays X, plays O) of a game between ``high`` (the higher placed) and ``low``."""
    high_due, low_due = colour_due(high), colour_due(low)
    if high_due is not None:
        high_gets = high_due
    elif low_due is not None:
        high_gets = _other(low_due)
    elif high.balance != low.balance:
        high_gets = "X" if high.balance < low.balance else "O"
    elif high.colours and low.colours and high.colours[-1] != low.colours[-1]:
        high_gets = "X" if high.colours[-1] == "O" else "O"
    elif high.colours:
        high_gets = _other(high.colours[-1])
    else:
        high_gets = "X" if board % 2 == 0 else "O"
    return (high.name, low.name) if high_gets == "X" else (low.name, high.name)


class _Search:
    """Branch and bound over the ways to pair ``ranked`` (best placed first)."""

    def __init__(self, ranked: list[SwissPlayer], *, serious_only: bool = False) -> None:
        self.ranked = ranked
        n = len(ranked)
        self.cost = [[_cost(a, b) if a is not b else 0 for b in ranked] for a in ranked]
        if serious_only:  # repeats and colour conflicts alone: where the bye may go
            self.cost = [[c - c % _CONFLICT for c in row] for row in self.cost]
        self.cheapest = [
            min((self.cost[i][j] for j in range(n) if j != i), default=0) for i in range(n)
        ]
        self.best: list[tuple[int, int]] | None = None
        self.best_cost = 0
        self.steps = 0

    def run(self) -> tuple[list[tuple[int, int]], int]:
        self._extend(list(range(len(self.ranked))), [], 0)
        assert self.best is not None
        return self.best, self.best_cost

    def _order(self, remaining: list[int]) -> list[int]:
        """The top player's partners to try: cheapest first, then in the Dutch order (their
        score group's middle down, then up, then the lower groups in rank order)."""
        top = remaining[0]
        score = self.ranked[top].score
        group = [i for i in remaining if self.ranked[i].score == score]
        half = len(group) // 2
        dutch = {q: k for k, q in enumerate(group[half:] + group[half - 1 : 0 : -1])}
        others = remaining[1:]
        return sorted(others, key=lambda q: (self.cost[top][q], dutch.get(q, len(group) + q)))

    def _extend(self, remaining: list[int], games: list[tuple[int, int]], spent: int) -> None:
        if not remaining:
            if self.best is None or spent < self.best_cost:
                self.best, self.best_cost = list(games), spent
            return
        self.steps += 1
        if self.best is not None and self.steps > SEARCH_BUDGET:
            return
        top = remaining[0]
        for partner in self._order(remaining):
            rest = [i for i in remaining if i not in (top, partner)]
            bound = spent + self.cost[top][partner] + sum(self.cheapest[i] for i in rest) // 2
            if self.best is not None and bound >= self.best_cost:
                continue
            games.append((top, partner))
            self._extend(rest, games, spent + self.cost[top][partner])
            games.pop()
            if self.best is not None and (self.best_cost == 0 or self.steps > SEARCH_BUDGET):
                return


def pair_round(players: Sequence[SwissPlayer]) -> SwissRound:
    """The next round's games among ``players`` (in seed order) and its bye (odd counts)."""
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise TournamentError("a Swiss round lists each player once")
    seed = {p.name: i for i, p in enumerate(players)}
    ranked = sorted(players, key=lambda p: (-p.score, seed[p.name]))
    if len(ranked) < 2:
        return SwissRound((), ranked[0].name if ranked else None)
    if len(ranked) % 2 == 0:
        return _round(ranked, None)
    # The bye: the lowest placed without one, unless another without one leaves a pairing
    # with fewer repeats or colour conflicts (score differences do not move the bye).
    candidates = [p for p in reversed(ranked) if not p.had_bye] or list(reversed(ranked))
    chosen: tuple[int, SwissPlayer] | None = None
    for candidate in candidates:
        _, serious = _Search([p for p in ranked if p is not candidate], serious_only=True).run()
        if chosen is None or serious < chosen[0]:
            chosen = (serious, candidate)
        if serious == 0:
            break
    assert chosen is not None
    return _round([p for p in ranked if p is not chosen[1]], chosen[1].name)


def _round(ranked: list[SwissPlayer], bye: str | None) -> SwissRound:
    games, _ = _Search(ranked).run()
    boards = sorted((min(a, b), max(a, b)) for a, b in games)
    return SwissRound(
        tuple(_colours(ranked[a], ranked[b], board) for board, (a, b) in enumerate(boards)),
        bye,
    )
