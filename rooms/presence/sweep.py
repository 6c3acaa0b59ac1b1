"""The presence sweep: any live worker cleans up after the workers whose lease expired.

Every ``interval`` seconds (jittered, so workers do not sweep in step) a worker scans the next
part of the registry and tries to **claim** the cleanup of each listed worker whose lease is
gone; one claimer holds a claim at a time. For each room of the dead worker's index it commits
``Evict`` through the ordinary service path until the room answers with no event (seats first,
starting their abandonment grace, then spectators), unindexes the room, and once the index is
empty **finishes**: the dead worker is forgotten.

Work per tick is bounded (``workers_per_tick``, ``rooms_per_tick``); a claimer resumes its own
claims first, and a claim expires after ``claim_ttl``, so another worker takes over if the
claimer dies. Everything is idempotent, and two workers on one room are settled by its
compare-and-set. Swept rooms pass through this worker's service, so its watch (rooms.watch)
takes over a flag that falls or a bot move owed in a room whose only worker died.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable

from rooms.backends.registry import Registry
from rooms.errors import ErrorCode, RoomError
from rooms.presence.lease import TRANSIENT, Presence
from rooms.room.commands import Evict
from rooms.service import RoomService

__all__ = ["MAX_EVICT_STEPS", "Sweeper"]

log = logging.getLogger("tictactoe.rooms")

MAX_EVICT_STEPS = 6
"""Commits per room and tick: a seat each (at most four) and the spectators, and the last
look that finds nothing left."""


class Sweeper:
    def __init__(
        self,
        registry: Registry,
        service: RoomService,
        presence: Presence,
        *,
        interval: float = 5.0,
        claim_ttl: float | None = None,
        workers_per_tick: int = 64,
        rooms_per_tick: int = 64,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        if (
            isinstance(interval, bool)
            or not isinstance(interval, int | float)
            or not (interval > 0)
        ):
            raise ValueError(f"the sweep interval must be above 0 seconds, not {interval!r}")
        self._registry = registry
        self._service = service
        self._presence = presence
        self._interval = float(interval)
        # Long enough to survive between two of the claimer's ticks with room to spare.
        self._claim_ttl = claim_ttl or max(2 * presence.ttl, 4 * self._interval)
        self._workers_per_tick = workers_per_tick
        self._rooms_per_tick = rooms_per_tick
        self._jitter = jitter
        self._cursor = 0
        self._claimed: dict[str, None] = {}  # dead workers this one is cleaning (ordered)
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self.evictions = 0
        """Eviction commits this worker made (one per seat or spectator group)."""
        self.finished = 0
        """Dead workers whose cleanup this worker finished."""

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="sweep")

    async def close(self) -> None:
        # The flag as well as the cancel: on Python 3.11 redis-py sends each command under
        # asyncio.wait_for, which swallows a cancel landing as the write completes, so a
        # loop stopped by cancel() alone can go on sweeping forever.
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._interval * (0.75 + 0.5 * self._jitter())):
                    await self._stop.wait()
            if self._stop.is_set():
                return
            try:
                await self.sweep()
            except RoomError as exc:
                log.warning("presence sweep: %s", exc.message)
            except Exception:  # the sweep must outlive any one failure
                log.exception("presence sweep failed")

    async def sweep(self) -> int:
        """One tick; returns how many rooms of dead workers it cleaned. Does nothing while
        this worker itself holds no live lease (it might be the one others find dead)."""
        if not self._presence.alive:
            return 0
        me = self._presence.worker
        self._cursor, listed = await self._registry.scan(self._cursor, self._workers_per_tick)
        budget = self._rooms_per_tick
        cleaned = 0
        for worker in dict.fromkeys([*self._claimed, *listed]):
            if budget <= 0:
                break
            if worker == me:
                continue
            if not await self._registry.claim(worker, me, self._claim_ttl):
                self._claimed.pop(worker, None)  # alive, or someone else is on it
                continue
            self._claimed[worker] = None
            done, complete = await self._clean(worker, budget)
            budget -= max(done, 1)
            cleaned += done
            if complete and await self._registry.finish(worker, me):
                self._claimed.pop(worker, None)
                self.finished += 1
                log.info("presence: worker %s is gone; its connections were removed", worker)
        return cleaned

    async def _clean(self, worker: str, budget: int) -> tuple[int, bool]:
        """Evict ``worker`` from up to ``budget`` of its rooms: (rooms done, whether every
        one of them was done, so its index may now be empty)."""
        rooms = await self._registry.rooms(worker, budget)
        done = 0
        for room_id in rooms:
            if not await self._evict(room_id, worker):
                return done, False
            await self._registry.remove_room(worker, room_id)
            done += 1
        return done, True

    async def _evict(self, room_id: str, worker: str) -> bool:
        """Whether ``worker`` has nothing left in ``room_id`` (or never will have)."""
        for _ in range(MAX_EVICT_STEPS):
            try:
                executed = await self._service.execute(room_id, Evict(worker))
            except RoomError as exc:
                if exc.code in TRANSIENT:
                    return False  # the next tick tries again
                if exc.code is not ErrorCode.ROOM_NOT_FOUND:
                    log.warning(
                        "room %s: could not evict worker %s: %s", room_id, worker, exc.message
                    )
                return True  # a room that refuses it will not change its mind
            if executed.event is None:
                return True
            self.evictions += 1
        return False
