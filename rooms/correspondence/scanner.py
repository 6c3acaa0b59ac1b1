"""Every worker's look, every ``interval`` seconds, at the store's index of deadlines.

A correspondence game waits days for a move, and no worker need hold its room all that time:
the store keeps its deadline (rooms.backends.due), and every worker scans the deadlines that
passed. For each, the scanner commits a ``Tick`` through the service: the versioned commit any
flag takes (rooms.room.endings), so however many workers scan at once, and whichever of them
dies in the middle, the game ends exactly once; the commit that ends it takes it out of the
index in the same step. A tick that finds nothing to do (a move landed meanwhile, or the entry
was wrong) repairs the entry, unless a newer commit changed it already (``repair_due``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from rooms.backends.due import DueIndex
from rooms.errors import ErrorCode, RoomError
from rooms.room.commands import Tick
from rooms.service import RoomService

__all__ = ["DeadlineScanner"]

log = logging.getLogger("tictactoe.rooms")


class DeadlineScanner:
    """Ends the correspondence games whose deadline passed (see the module)."""

    def __init__(
        self,
        service: RoomService,
        index: DueIndex,
        *,
        interval: float = 5.0,
        batch: int = 100,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not interval > 0 or batch < 1:
            raise ValueError(f"a scan needs an interval above 0 and a batch >= 1: {interval!r}")
        self._service = service
        self._index = index
        self._interval = interval
        self._batch = batch
        self._clock = clock
        self._task: asyncio.Task[None] | None = None
        self.ended = 0
        """Games this worker's scans ended (for tests and metrics)."""

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="deadlines")

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            try:
                await self.scan()
            except RoomError as exc:  # the store is down: the next look tries again
                log.warning("the deadline scan could not read the store: %s", exc.message)
            except Exception:
                log.exception("the deadline scan failed")
            await asyncio.sleep(self._interval)

    async def scan(self) -> int:
        """One look: end every game whose deadline passed (up to ``batch`` of them, the
        earliest first; the rest wait for the next look). How many this look ended."""
        ended = 0
        for room_id, at in await self._index.due_rooms(self._clock(), self._batch):
            try:
                if await self._end(room_id, at):
                    ended += 1
            except RoomError as exc:
                log.warning("room %s: a missed deadline could not end it: %s", room_id, exc)
        self.ended += ended
        return ended

    async def _end(self, room_id: str, at: float) -> bool:
        try:
            executed = await self._service.execute(room_id, Tick())
        except RoomError as exc:
            if exc.code is not ErrorCode.ROOM_NOT_FOUND:
                raise
            await self._index.repair_due(room_id, at, None)  # gone (expired): out of the index
            return False
        if executed.event is not None:
            return True
        deadline = executed.room.deadline()  # not due after all: index it as the room says
        await self._index.repair_due(room_id, at, deadline.at if deadline is not None else None)
        return False
