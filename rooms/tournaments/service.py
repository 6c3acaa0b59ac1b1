"""The tournament service: load → change → compare-and-set commit, retried on a race.

Every write goes through ``change``: it reads the record, applies a function that edits the
copy (and says whether it changed anything), and commits it as version + 1 only if nobody
committed meanwhile; on a lost race it reads again and re-applies, so the function always
judges the newest record (a second worker's result, a round already opened). Listeners hear
each committed record (the live socket, the runner's next step).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from rooms.common.ids import new_player_id
from rooms.errors import ErrorCode, RoomError
from rooms.tournaments.record import TournamentRecord
from rooms.tournaments.shelf import TournamentShelf

__all__ = ["TournamentService"]

log = logging.getLogger("tictactoe.rooms")

Change = Callable[[TournamentRecord], bool]
Listener = Callable[[TournamentRecord], None]


class TournamentService:
    def __init__(
        self,
        shelf: TournamentShelf,
        *,
        clock: Callable[[], float] = time.time,
        max_attempts: int = 32,
    ) -> None:
        self.shelf = shelf
        self.clock = clock
        self._max_attempts = max_attempts
        self.conflicts = 0
        """Commits that lost a compare-and-set race and were retried (tests, metrics)."""
        self.listeners: list[Listener] = []

    async def create(self, make: Callable[[str, float], TournamentRecord]) -> TournamentRecord:
        """A new tournament: ``make(id, now)`` builds it, under a fresh id."""
        for _ in range(3):
            record = make(new_player_id(), self.clock())
            if await self.shelf.create(record):
                self._tell(record)
                return record
        raise RoomError(ErrorCode.BUSY, "could not find a free tournament id; try again")

    async def get(self, tournament_id: str) -> TournamentRecord:
        record = await self.shelf.load(tournament_id)
        if record is None:
            raise RoomError(ErrorCode.NOT_FOUND, f"no tournament {tournament_id!r:.40}")
        return record

    async def change(
        self, tournament_id: str, edit: Change, *, in_thread: bool = False
    ) -> tuple[TournamentRecord, bool]:
        """Apply ``edit`` and commit; the record as it now stands and whether it changed.
        ``edit`` raises RoomError to refuse (nothing is written). ``in_thread`` runs it off
        the event loop (a Swiss's pairing search may take a moment; the record it edits is
        this call's own copy)."""
        for _ in range(self._max_attempts):
            record = await self.get(tournament_id)
            expected = record.version
            changed = await asyncio.to_thread(edit, record) if in_thread else edit(record)
            if not changed:
                return record, False
            record.version, record.updated = expected + 1, self.clock()
            if await self.shelf.commit(record, expected):
                self._tell(record)
                return record, True
            self.conflicts += 1
        raise RoomError(ErrorCode.BUSY, "the tournament changed too often at once; try again")

    def _tell(self, record: TournamentRecord) -> None:
        for listener in tuple(self.listeners):
            try:
                listener(record)
            except Exception:  # a listener's bug must not fail the change that landed
                log.exception("tournament %s: a listener failed", record.id)
