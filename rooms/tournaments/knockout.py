"""A knockout's steps over its record: seed the bracket, add each match's games as due.

Sans-I/O changes for ``TournamentService.change``. At the start the entrants are seeded by
rating (``core.knockout.seeded``; the caller reads the ratings) and round 1's games are added;
byes go through without one. Whenever a match's last game has a result, ``core.knockout``
decides it or asks for a replay (a new game of the same match, colours swapped); once every
match of the round is decided, the next round's games are added, or the final's winner ends
it. A game with a withdrawn player is forfeited as soon as it is added.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.knockout import rounds_of, seeded
from rooms.errors import ErrorCode, RoomError
from rooms.tournaments.record import KNOCKOUT, Game, Status, TournamentRecord

__all__ = ["DEFAULT_RATING", "advance_knockout", "start_knockout"]

DEFAULT_RATING = 1500.0
"""The seeding rating of an entrant without one in the tournament's pool (and of a bot)."""


def start_knockout(record: TournamentRecord, ratings: Mapping[str, float]) -> None:
    """Seed the entrants by ``ratings`` (missing ones count ``DEFAULT_RATING``) and open
    round 1."""
    if len(record.entrants) < 2:
        raise RoomError(
            ErrorCode.TOURNAMENT_CLOSED, "a knockout needs at least two entrants to start"
        )
    ids = [e.id for e in record.entrants]
    record.seeds = list(seeded(ids, {i: ratings.get(i, DEFAULT_RATING) for i in ids}))
    record.rounds, record.round, record.status = rounds_of(len(ids)), 1, Status.RUNNING
    while _add_due_games(record):
        pass


def _add_due_games(record: TournamentRecord) -> bool:
    """Add the game due in each match of this round that needs one; False when none."""
    added = False
    for match in record.bracket()[record.round - 1]:
        if match.next_game is None:
            continue
        first, second = match.next_game
        index = len(record.round_games())
        game = Game(record.round, index, first, second, match=match.index)
        record.games.append(game)
        for player in (first, second):
            entrant = record.entrant(player)
            if entrant is not None and entrant.withdrawn and game.result is None:
                record.forfeit(game, player)
        added = True
    return added


def advance_knockout(record: TournamentRecord) -> bool:
    """A replay or the next round's games as due, or the finish once the final is decided."""
    if record.kind != KNOCKOUT or record.status is not Status.RUNNING:
        return False
    changed = False
    while _add_due_games(record):
        changed = True
    current = record.bracket()[record.round - 1]
    if any(m.winner is None for m in current):
        return changed
    if record.round >= record.rounds:
        record.status = Status.FINISHED
        return True
    record.round += 1
    while _add_due_games(record):
        pass
    return True
