"""A round-robin tournament: the schedule, the results as they come in, and the standings.

The pairings come from ``core.round_robin`` (first moves balanced, one bye a cycle each when the
count is odd). ``Tournament.record`` takes each game's result; ``Tournament.run(play)`` plays
the whole schedule through a callback (the bots' ``tictactoe tournament``, the server). Scoring
(``Points``): 3 a win, 1 a draw, 0 a loss; a bye scores as a win unless ``Points(bye=...)`` says
otherwise, credited once every game of its round has a result, so partial standings never count
a bye ahead of the games beside it.

Standings are ``core.standings``'s: points, then Sonneborn-Berger, head-to-head, wins, name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .round_robin import Pairing, Round, TournamentError, check_players, schedule
from .standings import InvalidPoints, Points, Standing, rank

__all__ = [
    "InvalidPoints",
    "NotInPairing",
    "Points",
    "Result",
    "ResultAlreadyRecorded",
    "Standing",
    "Tournament",
    "UnknownPairing",
    "UnknownPlayer",
]


class UnknownPlayer(TournamentError):
    code = "unknown_player"


class UnknownPairing(TournamentError):
    code = "unknown_pairing"


class ResultAlreadyRecorded(TournamentError):
    code = "result_already_recorded"


class NotInPairing(TournamentError):
    code = "not_in_pairing"


@dataclass(frozen=True, slots=True)
class Result:
    """A game's result: ``winner`` is one of the pairing's players, or None for a draw."""

    pairing: Pairing
    winner: str | None

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        first, second = self.pairing.players
        return second if self.winner == first else first

    @property
    def is_draw(self) -> bool:
        return self.winner is None


class Tournament:
    """A (double) round robin among named players; results are recorded game by game."""

    def __init__(
        self, players: Sequence[str], *, double: bool = False, points: Points | None = None
    ) -> None:
        self.players: tuple[str, ...] = check_players(players)
        self.double = double
        self.points = points if points is not None else Points()
        self.rounds: tuple[Round, ...] = schedule(self.players, double=double)
        self._pairings = tuple(p for rnd in self.rounds for p in rnd.pairings)
        self._scheduled = frozenset(self._pairings)
        self._results: dict[Pairing, Result] = {}

    # -- the schedule ---------------------------------------------------------------------

    @property
    def pairings(self) -> tuple[Pairing, ...]:
        """Every game, round by round."""
        return self._pairings

    def pending(self) -> tuple[Pairing, ...]:
        """The games still without a result, in schedule order."""
        return tuple(p for p in self._pairings if p not in self._results)

    @property
    def results(self) -> tuple[Result, ...]:
        """The results recorded so far, in the order they were recorded."""
        return tuple(self._results.values())

    @property
    def is_complete(self) -> bool:
        return len(self._results) == len(self._pairings)

    # -- results --------------------------------------------------------------------------

    def record(self, pairing: Pairing, winner: str | None) -> Result:
        """Record a game of the schedule: ``winner`` is one of its players, None a draw."""
        if not isinstance(pairing, Pairing):
            raise UnknownPairing(f"a result needs a Pairing of this tournament, got {pairing!r}")
        for name in pairing.players:
            self._check_player(name)
        if pairing not in self._scheduled:
            raise UnknownPairing(f"there is no game {pairing} in this tournament")
        if pairing in self._results:
            earlier = self._results[pairing]
            said = "a draw" if earlier.is_draw else f"a win for {earlier.winner}"
            raise ResultAlreadyRecorded(f"{pairing} already has a result ({said})")
        if winner is not None:
            self._check_player(winner)
            if winner not in pairing.players:
                raise NotInPairing(f"{winner!r} does not play in {pairing}")
        result = Result(pairing, winner)
        self._results[pairing] = result
        return result

    def run(self, play: Callable[[Pairing], str | None]) -> tuple[Standing, ...]:
        """Play every pending game through ``play`` (it returns the winner's name or None
        for a draw), record each result, and return the final standings."""
        for pairing in self.pending():
            self.record(pairing, play(pairing))
        return self.standings()

    def _check_player(self, name: str) -> None:
        if name not in self.players:
            raise UnknownPlayer(f"{name!r} is not a player in this tournament")

    # -- standings ------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """The table from the results so far, best first, ranked 1 to N (``core.standings``);
        a round's bye is credited once every game of that round has a result."""
        byes: dict[str, int] = {}
        for rnd in self.rounds:
            if rnd.bye is not None and all(p in self._results for p in rnd.pairings):
                byes[rnd.bye] = byes.get(rnd.bye, 0) + 1
        games = ((r.pairing.first, r.pairing.second, r.winner) for r in self._results.values())
        return rank(self.players, games, points=self.points, byes=byes)

    def __repr__(self) -> str:
        kind = "double round robin" if self.double else "round robin"
        return (
            f"<Tournament {kind} of {len(self.players)} players, "
            f"{len(self._results)}/{len(self._pairings)} games played>"
        )
