"""A Swiss's steps over its record: pair each round from the standings so far.

Both are sans-I/O changes for ``TournamentService.change``. A Swiss's number of rounds is set
at creation; each round is paired by ``core.swiss`` once every game of the one before has a
result (its bye then credited), among the entrants still in (a withdrawn player is paired no
more). The games of a round get their rooms as a round robin's do (the director).
"""

from __future__ import annotations

from core.swiss import SwissPlayer, pair_round
from rooms.errors import ErrorCode, RoomError
from rooms.tournaments.record import SWISS, Game, Status, TournamentRecord

__all__ = ["advance_swiss", "start_swiss", "swiss_players"]


def swiss_players(record: TournamentRecord) -> list[SwissPlayer]:
    """The entrants still in, in entry order, with their points, colours and opponents."""
    points = {s.name: s.points for s in record.standings()}
    colours: dict[str, str] = {}
    met: dict[str, set[str]] = {}
    for game in record.games:  # in the order they were paired
        for player, mark in ((game.first, "X"), (game.second, "O")):
            colours[player] = colours.get(player, "") + mark
            met.setdefault(player, set()).add(game.other(player))
    had_bye = set(record.byes.values())
    return [
        SwissPlayer(
            e.id,
            points.get(e.id, 0),
            colours.get(e.id, ""),
            frozenset(met.get(e.id, ())),
            e.id in had_bye,
        )
        for e in record.entrants
        if not e.withdrawn
    ]


def _pair(record: TournamentRecord) -> None:
    """Pair round ``record.round``; finish instead when fewer than two are still in."""
    players = swiss_players(record)
    if len(players) < 2:
        record.status = Status.FINISHED
        return
    paired = pair_round(players)
    record.games.extend(
        Game(record.round, index, first, second)
        for index, (first, second) in enumerate(paired.games)
    )
    if paired.bye is not None:
        record.byes[record.round] = paired.bye


def start_swiss(record: TournamentRecord) -> None:
    """Open round 1: the rounds were set at creation, and need more entrants than rounds."""
    if len(record.entrants) <= record.rounds:
        raise RoomError(
            ErrorCode.TOURNAMENT_CLOSED,
            f"a Swiss of {record.rounds} rounds needs at least {record.rounds + 1} entrants "
            f"to start, it has {len(record.entrants)}",
        )
    record.round, record.status = 1, Status.RUNNING
    _pair(record)


def advance_swiss(record: TournamentRecord) -> bool:
    """Once every game of this round has a result: pair the next round, or finish."""
    return record.kind == SWISS and record.advance(_pair)
