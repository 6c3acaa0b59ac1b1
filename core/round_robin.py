"""Round-robin pairings by the circle method, with first moves balanced.

Seat the players in order; with an odd count add an empty seat, whose partner each round
has the bye. The last seat stays put and the others turn round a circle of ``m`` seats
(``m`` odd): in round ``r`` (from 0) seat ``r`` meets the fixed seat, and seats ``r - d``
and ``r + d`` (mod ``m``) meet for ``d = 1 .. (m - 1) / 2``. Every pair meets exactly once
in ``m`` rounds.

Who plays first alternates:

- a circle seat against the fixed seat (round ``r``): the circle seat plays first when
  ``r`` is even, so the fixed seat alternates first and second round by round;
- seats ``r - d`` and ``r + d``: the earlier one, ``r - d``, plays first when ``d`` is odd.
  From one round to the next a seat keeps its side of its pairing while ``d`` moves by
  one, so it alternates first and second.

Over the whole cycle a circle seat meets the rest of the circle once as ``r - d`` and
once as ``r + d`` for each ``d`` in ``1 .. (m - 1) / 2``, and plays first in exactly one
of each two: half of those games. So every player's first-move and second-move counts
differ by at most one (by none with an odd number of players), and nobody plays first,
or second, more than twice running (never with an odd number). A double round robin plays
the same rounds again with colours swapped, so everyone plays first in exactly half of
their games (at the turn of the halves a run can grow by one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import GameError

__all__ = [
    "DuplicatePlayer",
    "InvalidPlayerName",
    "Pairing",
    "Round",
    "TooFewPlayers",
    "TournamentError",
    "check_players",
    "schedule",
]


class TournamentError(GameError):
    """Root of the tournament's errors; each subclass has its own stable code."""

    code = "tournament_error"


class TooFewPlayers(TournamentError):
    code = "too_few_players"


class DuplicatePlayer(TournamentError):
    code = "duplicate_player"


class InvalidPlayerName(TournamentError):
    code = "invalid_player_name"


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of the schedule: ``first`` plays X (moves first), ``second`` plays O."""

    round: int  # from 1
    first: str
    second: str

    @property
    def players(self) -> tuple[str, str]:
        return (self.first, self.second)

    def player(self, mark: str) -> str:
        """The name playing ``mark``: X is ``first``, O is ``second``."""
        if mark == "X":
            return self.first
        if mark == "O":
            return self.second
        raise TournamentError(f"a tournament game has only X and O, not {mark!r}")

    def __str__(self) -> str:
        return f"round {self.round}: {self.first} (X) v {self.second} (O)"


@dataclass(frozen=True, slots=True)
class Round:
    """The games of one round, and who sits it out (odd player counts only)."""

    number: int  # from 1
    pairings: tuple[Pairing, ...]
    bye: str | None = None


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """The names as a tuple; typed errors for a bare string, bad or repeated names, < 2."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidPlayerName(f"players must be a list of names, got {players!r}")
    seen: set[str] = set()
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise InvalidPlayerName(f"a player name must be a non-empty string, got {name!r}")
        if name in seen:
            raise DuplicatePlayer(f"player {name!r} is entered twice")
        seen.add(name)
    if len(players) < 2:
        raise TooFewPlayers(f"a round robin needs at least two players, got {len(players)}")
    return tuple(players)


def schedule(players: Sequence[str], *, double: bool = False) -> tuple[Round, ...]:
    """Every round of a (double) round robin among ``players``, in playing order.

    ``n`` players play ``n - 1`` rounds when ``n`` is even and ``n`` rounds (one bye each)
    when it is odd; a double round robin plays twice as many.
    """
    names = check_players(players)
    seats: list[str | None] = [*names, None] if len(names) % 2 else list(names)
    fixed, circle = seats[-1], seats[:-1]
    m = len(circle)
    half = (m - 1) // 2
    rounds: list[Round] = []
    for r in range(m):
        games: list[tuple[str, str]] = []
        bye: str | None = None
        mover = circle[r]
        assert mover is not None  # only the fixed seat can be empty
        if fixed is None:
            bye = mover
        else:
            games.append((mover, fixed) if r % 2 == 0 else (fixed, mover))
        for d in range(1, half + 1):
            a, b = circle[(r - d) % m], circle[(r + d) % m]
            assert a is not None and b is not None
            games.append((a, b) if d % 2 else (b, a))
        rounds.append(
            Round(r + 1, tuple(Pairing(r + 1, first, second) for first, second in games), bye)
        )
    if double:
        rounds += [
            Round(
                m + rnd.number,
                tuple(Pairing(m + rnd.number, p.second, p.first) for p in rnd.pairings),
                rnd.bye,
            )
            for rnd in list(rounds)
        ]
    return tuple(rounds)
