"""A worker's presence: its lease, its heartbeat, and the rooms where it holds connections.

Each worker registers under a random id with a lease of ``ttl`` seconds (rooms.
presence_registry) and renews it every ``ttl / 3`` seconds. Its connection ids carry that
id (``<worker>.<random>``, rooms.ids), so whoever finds the lease expired knows which
connections in a room were this worker's and evicts them (rooms.presence_sweep).

Before a connection's ``Join`` is committed, the room goes into the worker's index (the
first local connection there only); after its ``Leave`` is recorded, the last local
connection there takes the room out. So a room where this worker may hold a connection is
always indexed, and the sweep of a dead worker visits every room it must. A ``Leave``
that cannot be recorded (the store is unavailable) is retried at every heartbeat and
keeps the room indexed meanwhile.

A worker that is merely slow (a GC pause, a SIGSTOP shorter than the lease) renews in
time and nothing happens. One that comes back after its lease expired (or whose heartbeat
could not reach the store for ``ttl`` seconds) cannot know whether another worker already
evicted its connections, so it does not try to keep them: it takes a NEW id, registers
it, and closes every connection of the old id with 1012 (the handlers given to
``enter``); the clients resume with their seat tokens, on this worker or any other. A dead
id is never renewed nor re-used, so a sweep of it can never remove a live connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import socket
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from .commands import Leave
from .errors import ErrorCode, RoomError
from .ids import new_connection_id, new_worker_id, worker_of
from .presence_registry import Registry
from .service import RoomService

__all__ = ["LeaseLost", "LostHandler", "Presence"]

log = logging.getLogger("tictactoe.rooms")

LostHandler = Callable[[], None]
"""Called when the lease a connection was made under is lost: close that connection."""

TRANSIENT = frozenset({ErrorCode.UNAVAILABLE, ErrorCode.BUSY})
RETRIES_PER_BEAT = 256
"""Unrecorded departures retried per heartbeat (the rest wait for the next one)."""


class LeaseLost(RoomError):
    """This worker's lease is gone (or about to be replaced): the connection must resume."""

    def __init__(self) -> None:
        super().__init__(
            ErrorCode.UNAVAILABLE,
            "this server lost its presence lease and is registering again; reconnect and "
            "resume",
        )


class _KeyedLocks:
    """One asyncio lock per key, dropped when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[tuple[str, str], tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: tuple[str, str]) -> AsyncIterator[None]:
        held = self._locks.get(key)
        lock, users = held if held is not None else (asyncio.Lock(), 0)
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)


class Presence:
    def __init__(
        self,
        registry: Registry,
        service: RoomService,
        *,
        ttl: float = 15.0,
        clock: Callable[[], float] = time.monotonic,
        holder: str | None = None,
        max_pending: int = 10_000,
    ) -> None:
        if isinstance(ttl, bool) or not isinstance(ttl, int | float) or not ttl > 0:
            raise ValueError(f"the lease ttl must be a number of seconds above 0, not {ttl!r}")
        self._registry = registry
        self._service = service
        self._ttl = float(ttl)
        self._clock = clock
        self._holder = holder or f"{socket.gethostname()}:{os.getpid()}"
        self._max_pending = max_pending
        self.worker = new_worker_id()
        """This worker's current id (a new one after each lost lease)."""
        self._registered = False
        self._renewed = -math.inf  # clock() when the last renewal that landed was SENT
        self._counts: dict[tuple[str, str], int] = {}  # (worker id, room) -> connections
        self._locks = _KeyedLocks()
        self._held: dict[str, LostHandler] = {}  # connection id -> its close handler
        self._pending: dict[str, tuple[str, bool]] = {}  # conn -> (room, deliberate)
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.losses = 0
        """How many times this worker found its lease gone (and took a new id)."""

    @property
    def ttl(self) -> float:
        return self._ttl

    @property
    def registry(self) -> Registry:
        return self._registry

    @property
    def alive(self) -> bool:
        """Whether this worker holds a lease it renewed less than ``ttl`` seconds ago."""
        return self._registered and self._clock() - self._renewed < self._ttl

    def connection_id(self) -> str:
        return new_connection_id(self.worker)

    def pending(self) -> int:
        """Departures not recorded yet (retried at every heartbeat)."""
        return len(self._pending)

    # -- the lease ------------------------------------------------------------------------

    async def start(self) -> None:
        """Register (RoomError when the registry cannot be reached), then beat in the
        background every ``ttl / 3`` seconds."""
        await self._register()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="presence")

    async def _register(self) -> None:
        sent = self._clock()
        await self._registry.register(self.worker, self._ttl, holder=self._holder)
        self._registered, self._renewed = True, sent
        log.info("presence: worker %s registered (lease %gs)", self.worker, self._ttl)

    async def _run(self) -> None:
        while not self._stop.is_set():
            # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow the cancel of
            # close() when the wake-up lands at the same moment, and never stop.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._ttl / 3):
                    await self._wake.wait()
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                await self.beat()
            except Exception:  # the heartbeat must outlive any one failure
                log.exception("presence: a heartbeat failed")

    async def beat(self) -> None:
        """One heartbeat: renew the lease, or find it gone and start over under a new id
        (closing the old id's connections); then retry the unrecorded departures."""
        try:
            if self._registered and self._clock() - self._renewed >= self._ttl:
                # Not renewed for a whole lease (frozen, or the store out of reach): it may
                # have expired and been swept already, so it cannot be trusted any more.
                await self._lose(self.worker, "it was not renewed in time")
            if self._registered:
                worker, sent = self.worker, self._clock()
                renewed = await self._registry.renew(worker, self._ttl)
                if renewed and worker == self.worker:
                    self._renewed = sent
                elif not renewed:  # a join may have found out meanwhile: lose it once
                    await self._lose(worker, "it expired")
            if not self._registered:
                await self._register()
        except RoomError as exc:
            log.warning("presence: worker %s: heartbeat failed: %s", self.worker, exc.message)
        await self._retry_departures()

    async def _lose(self, old: str, reason: str) -> None:
        if old != self.worker:
            return  # already replaced (a join found out at the same moment)
        self.worker, self._registered = new_worker_id(), False
        self.losses += 1
        closing = [handler for conn, handler in self._held.items() if worker_of(conn) == old]
        log.warning(
            "presence: worker %s lost its lease (%s): closing its %d connections so they "
            "resume; registering as %s", old, reason, len(closing), self.worker,
        )
        for handler in closing:
            try:
                handler()
            except Exception:
                log.exception("presence: a connection could not be closed")
        with contextlib.suppress(RoomError):
            await self._registry.release(old)  # let the sweep start at once, if it can

    async def close(self, *, release: bool = True) -> None:
        """Stop the heartbeat, retry unrecorded departures once more, and give the lease
        up (``release=False`` leaves it to expire, as a crash would)."""
        # The flag too: redis-py on 3.11 can swallow the cancel mid-command (see Sweeper).
        self._stop.set()
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if not release:
            return
        await self._retry_departures()
        if self._registered:
            self._registered = False
            try:
                await self._registry.release(self.worker)
            except RoomError as exc:
                log.warning("presence: could not release the lease: %s", exc.message)

    # -- connections ----------------------------------------------------------------------

    async def enter(self, room_id: str, conn: str, on_lost: LostHandler) -> None:
        """``conn`` is about to join ``room_id``: index the room (first local connection
        there). LeaseLost when ``conn`` was made under a lease that is no longer ours."""
        worker = worker_of(conn)
        if worker != self.worker or not self.alive:
            raise LeaseLost()
        key = (worker, room_id)
        async with self._locks.hold(key):
            count = self._counts.get(key, 0)
            if count == 0 and not await self._registry.add_room(worker, room_id):
                await self._lose(worker, "it was gone when a connection joined")
                self._wake.set()  # register the new id now, not at the next beat
                raise LeaseLost()
            self._counts[key] = count + 1
        self._held[conn] = on_lost

    async def leave(self, room_id: str, conn: str, *, deliberate: bool = False) -> bool:
        """Record that ``conn`` left ``room_id`` (``Leave`` through the service) and unindex
        the room after the last local connection there. False when it could not be
        recorded now: it is retried at every heartbeat, the room staying indexed."""
        self._held.pop(conn, None)
        if not await self._depart(room_id, conn, deliberate):
            if len(self._pending) < self._max_pending:
                self._pending[conn] = (room_id, deliberate)
            else:  # still indexed: evicted when this worker's lease ends
                log.error("presence: too many departures to retry; %s stays in %s", conn,
                          room_id)
            return False
        await self._forget(room_id, conn)
        return True

    async def _depart(self, room_id: str, conn: str, deliberate: bool) -> bool:
        """Whether nothing more is to be done for this departure."""
        try:
            await self._service.execute(room_id, Leave(conn, deliberate))
        except RoomError as exc:
            if exc.code in TRANSIENT:
                log.info("room %s: departure of %s not recorded yet: %s", room_id, conn,
                         exc.message)
                return False
            if exc.code is not ErrorCode.ROOM_NOT_FOUND:
                log.info("room %s: could not record a departure: %s", room_id, exc.message)
        except Exception:
            log.exception("room %s: could not record a departure", room_id)
        return True

    async def _forget(self, room_id: str, conn: str) -> None:
        worker = worker_of(conn)
        if worker is None:
            return
        key = (worker, room_id)
        async with self._locks.hold(key):
            count = self._counts.get(key, 0) - 1
            if count > 0:
                self._counts[key] = count
                return
            self._counts.pop(key, None)
            try:
                await self._registry.remove_room(worker, room_id)
            except RoomError as exc:  # harmless: a sweep there would find nothing of ours
                log.info("room %s: left indexed under %s: %s", room_id, worker, exc.message)

    async def _retry_departures(self) -> None:
        for conn, (room_id, deliberate) in list(self._pending.items())[:RETRIES_PER_BEAT]:
            if await self._depart(room_id, conn, deliberate):
                del self._pending[conn]
                await self._forget(room_id, conn)
