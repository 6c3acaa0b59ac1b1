"""Each kind of tournament's start and next step, chosen by ``record.kind``.

The round robin's are the record's own; the arena's, the Swiss's and the knockout's are in
their modules. Both are sans-I/O changes for ``TournamentService.change``; a knockout's start
takes the entrants' ratings, which the caller reads from the rating book first.
"""

from __future__ import annotations

from collections.abc import Mapping

from rooms.tournaments.arena import finish_if_over, pair_free
from rooms.tournaments.knockout import advance_knockout, start_knockout
from rooms.tournaments.record import ARENA, KNOCKOUT, SWISS, TournamentRecord
from rooms.tournaments.swiss import advance_swiss, start_swiss

__all__ = ["advance", "start"]


def start(record: TournamentRecord, now: float, ratings: Mapping[str, float] | None = None) -> None:
    """Start ``record`` (it is ``open``): draw its schedule or its first round."""
    if record.kind == SWISS:
        record.require_open("start")
        start_swiss(record)
    elif record.kind == KNOCKOUT:
        record.require_open("start")
        start_knockout(record, ratings or {})
    else:
        record.start(now)


def advance(record: TournamentRecord, *, now: float) -> bool:
    """What comes after the results: a round's next round or the finish, a knockout's
    replays and next round, an arena's next pairings or, its time up, its finish."""
    if record.kind == ARENA:
        return pair_free(record, now) or finish_if_over(record, now)
    if record.kind == SWISS:
        return advance_swiss(record)
    if record.kind == KNOCKOUT:
        return advance_knockout(record)
    return record.advance()
