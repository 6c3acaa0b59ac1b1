"""Round-robin pairings by the circle method, with first moves balanced.

Seat the players in order, adding an empty seat (the bye) for an odd count. The last seat stays
put and the others turn round a circle of ``m`` seats (``m`` odd): in round ``r`` (from 0) seat
``r`` meets the fixed seat, and seats ``r - d`` and ``r + d`` (mod ``m``) meet for ``d = 1 .. (m
- 1) / 2``, so every pair meets exactly once in ``m`` rounds.

First moves alternate: against the fixed seat the circle seat plays first when ``r`` is even;
between ``r - d`` and ``r + d`` the earlier plays first when ``d`` is odd, and as a seat keeps
its side while ``d`` moves by one, it alternates round by round. So every player's first- and
second-move counts differ by at most one (by none for an odd count), and nobody plays first, or
second, more than twice running (never for an odd count). A double round robin replays the
rounds backwards with colours swapped: everyone plays first in exactly half of their games,
and the seam between the cycles makes no run longer than two.
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
        # The second cycle plays the rounds backwards, colours swapped: a player's colours
        # there are the first cycle's mirrored, so no run grows past two inside it, and at
        # the seam the last round's pairs meet again at once with the colours swapped, which
        # breaks any run. (The same order would join a run of two at the end of the first
        # cycle to a run of two at the start of the second: XXO then OOX is XXOOOX.)
        rounds += [
            Round(
                m + number,
                tuple(Pairing(m + number, p.second, p.first) for p in rnd.pairings),
                rnd.bye,
            )
            for number, rnd in enumerate(reversed(rounds), start=1)
        ]
    return tuple(rounds)
