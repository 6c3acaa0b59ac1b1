"""A round-robin tournament: the schedule, the results as they come in, and the standings.

The pairings come from ``core.round_robin`` (first moves balanced, one bye a cycle each when the
count is odd). ``Tournament.record`` takes each game's result; ``Tournament.run(play)`` plays
the whole schedule through a callback (the bots' ``tictactoe tournament``, the server). Scoring
(``Points``): 3 a win, 1 a draw, 0 a loss; a bye scores as a win unless ``Points(bye=...)`` says
otherwise, credited once every game of its round has a result, so partial standings never count
a bye ahead of the games beside it.

Standings are ordered by, in turn:

- points;
- Sonneborn-Berger: each game's points times the opponent's total, summed (a bye adds nothing);
- head-to-head: the points taken from the others tied on points;
- games won (byes are not wins);
- name, so the order is total and repeatable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .round_robin import Pairing, Round, TournamentError, check_players, schedule

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


class InvalidPoints(TournamentError):
    code = "invalid_points"


@dataclass(frozen=True, slots=True)
class Points:
    """What a win, a draw, a loss and a bye are worth; whole numbers, win ≥ draw ≥ loss."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3

    def __post_init__(self) -> None:
        for name in ("win", "draw", "loss", "bye"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidPoints(f"{name} points must be a whole number ≥ 0, got {value!r}")
        if not self.win >= self.draw >= self.loss:
            raise InvalidPoints(
                f"points must rank win ≥ draw ≥ loss, got {self.win}/{self.draw}/{self.loss}"
            )


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


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the table. ``head_to_head`` counts games among those tied on points."""

    rank: int
    name: str
    points: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    head_to_head: int
    sonneborn_berger: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "name": self.name,
            "points": self.points,
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "head_to_head": self.head_to_head,
            "sonneborn_berger": self.sonneborn_berger,
        }


@dataclass(slots=True)
class _Tally:
    """A player's running totals while standings are computed."""

    points: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    games: list[tuple[str, int]] = field(default_factory=list)  # (opponent, points taken)


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
        """The table from the results so far, best first, ranked 1 to N (see module doc)."""
        tallies = self._tallies()
        total = {name: tally.points for name, tally in tallies.items()}
        head_to_head = {
            name: sum(took for opponent, took in tally.games if total[opponent] == total[name])
            for name, tally in tallies.items()
        }
        sonneborn_berger = {
            name: sum(took * total[opponent] for opponent, took in tally.games)
            for name, tally in tallies.items()
        }

        def order(name: str) -> tuple[int, int, int, int, str]:
            tally = tallies[name]
            return (-tally.points, -sonneborn_berger[name], -head_to_head[name], -tally.wins, name)

        return tuple(
            Standing(
                rank=rank,
                name=name,
                points=tallies[name].points,
                played=len(tallies[name].games),
                wins=tallies[name].wins,
                draws=tallies[name].draws,
                losses=tallies[name].losses,
                byes=tallies[name].byes,
                head_to_head=head_to_head[name],
                sonneborn_berger=sonneborn_berger[name],
            )
            for rank, name in enumerate(sorted(self.players, key=order), start=1)
        )

    def _tallies(self) -> dict[str, _Tally]:
        points = self.points
        tallies = {name: _Tally() for name in self.players}
        for result in self._results.values():
            first, second = result.pairing.players
            if result.winner is None:
                for name, opponent in ((first, second), (second, first)):
                    tallies[name].draws += 1
                    tallies[name].points += points.draw
                    tallies[name].games.append((opponent, points.draw))
                continue
            winner, loser = result.winner, result.loser
            assert loser is not None
            tallies[winner].wins += 1
            tallies[winner].points += points.win
            tallies[winner].games.append((loser, points.win))
            tallies[loser].losses += 1
            tallies[loser].points += points.loss
            tallies[loser].games.append((winner, points.loss))
        for rnd in self.rounds:
            if rnd.bye is not None and all(p in self._results for p in rnd.pairings):
                tallies[rnd.bye].byes += 1
                tallies[rnd.bye].points += points.bye
        return tallies

    def __repr__(self) -> str:
        kind = "double round robin" if self.double else "round robin"
        return (
            f"<Tournament {kind} of {len(self.players)} players, "
            f"{len(self._results)}/{len(self._pairings)} games played>"
        )
