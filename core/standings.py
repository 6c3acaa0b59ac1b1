"""A tournament table from its games: points, then the tie-breaks, ranked 1 to N.

Both kinds of tournament rank this way: the round robin (``core.tournament``) and the arena
(``core.arena``), whose players may meet more than once. Scoring is ``Points``: 3 a win, 1 a
draw, 0 a loss by default, a bye whatever the caller credits. The order is, in turn:

- points;
- Sonneborn-Berger: each game's points times the opponent's total, summed (a bye adds nothing);
- head-to-head: the points taken from the others tied on points;
- games won (byes are not wins);
- name, so the order is total and repeatable.

Players level on everything but the name share a rank ("1=" three times, then 4th): the name
orders the table, it does not place anyone above another. ``shared`` marks them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .round_robin import TournamentError

__all__ = ["InvalidPoints", "Points", "Standing", "rank"]


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
class Standing:
    """One line of the table. ``head_to_head`` counts games among those tied on points;
    ``shared``: level with another on every tie-break, so on the same ``rank``."""

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
    shared: bool = False

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
            "shared": self.shared,
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


def rank(
    players: Sequence[str],
    games: Iterable[tuple[str, str, str | None]],
    *,
    points: Points | None = None,
    byes: Mapping[str, int] | None = None,
) -> tuple[Standing, ...]:
    """The table of ``players`` from finished ``games`` — (one player, the other, the
    winner or None for a draw) — and the ``byes`` credited to each, best first."""
    points = points if points is not None else Points()
    tallies = {name: _Tally() for name in players}
    for first, second, winner in games:
        if winner is None:
            for name, opponent in ((first, second), (second, first)):
                tallies[name].draws += 1
                tallies[name].points += points.draw
                tallies[name].games.append((opponent, points.draw))
            continue
        loser = second if winner == first else first
        tallies[winner].wins += 1
        tallies[winner].points += points.win
        tallies[winner].games.append((loser, points.win))
        tallies[loser].losses += 1
        tallies[loser].points += points.loss
        tallies[loser].games.append((winner, points.loss))
    for name, count in (byes or {}).items():
        tallies[name].byes += count
        tallies[name].points += points.bye * count
    total = {name: tally.points for name, tally in tallies.items()}
    head_to_head = {
        name: sum(took for opponent, took in tally.games if total[opponent] == total[name])
        for name, tally in tallies.items()
    }
    sonneborn_berger = {
        name: sum(took * total[opponent] for opponent, took in tally.games)
        for name, tally in tallies.items()
    }

    def level(name: str) -> tuple[int, int, int, int]:
        """What places a player: everything but the name."""
        tally = tallies[name]
        return (-tally.points, -sonneborn_berger[name], -head_to_head[name], -tally.wins)

    ordered = sorted(players, key=lambda name: (level(name), name))
    keys = [level(name) for name in ordered]
    # a player's rank: one more than the players strictly ahead (ties share the first place)
    places = [keys.index(key) + 1 for key in keys]
    counts = {key: keys.count(key) for key in keys}
    return tuple(
        Standing(
            rank=place,
            name=name,
            points=tallies[name].points,
            played=len(tallies[name].games),
            wins=tallies[name].wins,
            draws=tallies[name].draws,
            losses=tallies[name].losses,
            byes=tallies[name].byes,
            head_to_head=head_to_head[name],
            sonneborn_berger=sonneborn_berger[name],
            shared=counts[key] > 1,
        )
        for place, name, key in zip(places, ordered, keys, strict=True)
    )
