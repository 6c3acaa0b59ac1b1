"""Commits whose answer was lost: what the store holds, handed to this worker's listeners.

A worker hands the events it commits to its own listeners from the commit (rooms.service:
local first), and the store publishes an event for other workers only when the room holds
their connections. A commit whose answer never came (Redis frozen past the store's timeout,
or a connection dropped after the script ran) may have landed all the same, and then nobody
here was handed its event. The client retries with the same ``move_id``, the retry finds the
move played and answers it as a duplicate, which commits nothing: an opponent or spectator
on this worker would wait for a move it never hears of.

The same happens without an error: a driver that sends a command again after a connection
error (redis-py's Cluster client does, as a failover breaks its connections) turns a commit
that landed into a refusal of the same commit, the version moved on by itself. The service
notes every refusal whose room is past the version it committed against (rooms.service).

``UnsureCommits.note`` takes the version such a commit was made against. Once the store
answers again, the events it holds past that version are handed to the local fan-out as if
just committed here; a listener skips the versions it has (rooms.fanout.feed), so an event
that did reach it costs nothing more.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from rooms.common.tasks import cancel_all
from rooms.errors import ErrorCode, RoomError

if TYPE_CHECKING:
    from rooms.backends.store import Store

__all__ = ["UnsureCommits"]

log = logging.getLogger("tictactoe.rooms")


class UnsureCommits:
    def __init__(
        self,
        store: Store,
        committed: Callable[[str, int, str], None],
        *,
        first_pause: float = 0.05,
        max_pause: float = 2.0,
        give_up: float = 600.0,
    ) -> None:
        self._store = store
        self._committed = committed
        """The local fan-out's ``committed(room_id, version, text)`` (rooms.service)."""
        self._first_pause = first_pause
        self._max_pause = max_pause
        self._give_up = give_up
        """Seconds the store may stay away before a room's check is dropped (its listeners'
        next event then shows them the gap, and they repair it from the store)."""
        self._floors: dict[str, int] = {}  # room -> the oldest version a lost commit was against
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def note(self, room_id: str, version: int) -> None:
        """A commit of ``room_id`` against ``version`` got no answer: it may have landed."""
        floor = self._floors.get(room_id)
        self._floors[room_id] = version if floor is None else min(floor, version)
        if room_id in self._tasks:
            return
        self._tasks[room_id] = asyncio.get_running_loop().create_task(
            self._settled(room_id), name=f"unsure-commit:{room_id}"
        )

    async def _settled(self, room_id: str) -> None:
        try:
            await self._settle(room_id)
        finally:  # at once, not in a done callback: a note made meanwhile needs a new task
            if self._tasks.get(room_id) is asyncio.current_task():
                del self._tasks[room_id]

    async def _settle(self, room_id: str) -> None:
        pause = self._first_pause
        deadline = time.monotonic() + self._give_up
        while True:
            await asyncio.sleep(pause)
            floor = self._floors[room_id]
            try:
                texts = await self._store.events_since(room_id, floor)
            except RoomError as exc:
                if exc.code is not ErrorCode.UNAVAILABLE or time.monotonic() > deadline:
                    self._floors.pop(room_id, None)
                    log.info("room %s: a lost commit's events not checked: %s", room_id, exc)
                    return
                pause = min(pause * 2, self._max_pause)
                continue
            if self._floors[room_id] != floor:  # another lost commit, older, meanwhile
                pause = self._first_pause
                continue
            del self._floors[room_id]
            if texts is None:  # the log no longer reaches back (or the room is gone)
                log.info("room %s: a lost commit's events are past the log", room_id)
                return
            for version, text in enumerate(texts, floor + 1):
                try:
                    self._committed(room_id, version, text)
                except Exception:  # a listener's bug must not stop the others' events
                    log.exception("room %s: the local fan-out failed", room_id)
            return

    async def close(self) -> None:
        await cancel_all(list(self._tasks.values()))
        self._tasks.clear()
        self._floors.clear()
