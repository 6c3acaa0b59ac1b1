"""A worker's presence: its lease, its heartbeat, and the rooms where it holds connections.

Each worker registers under a random id with a lease of ``ttl`` seconds
(rooms.backends.registry) and renews it every ``ttl / 3``. Its connection ids carry that id
(``<worker>.<random>``, rooms.common.ids), so whoever finds the lease expired knows which
connections were this worker's and evicts them (``sweep``). A room where the worker may hold a
connection is always in its index (``rooms``), so that sweep visits every room it must.

A merely slow worker (a GC pause, a SIGSTOP shorter than the lease) renews in time. One that
comes back after its lease expired, or could not reach the store for ``ttl``, cannot know
whether it was swept, so it does not keep its connections: it registers a NEW id and closes
every connection of the old one with 1012 (the handlers given to ``join`` or ``enter``); the
clients resume with their seat tokens on any worker. A dead id is never renewed nor reused, so a
sweep can never remove a live connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import socket
import time
from collections.abc import Callable

from rooms.backends.index import NotIndexed
from rooms.backends.registry import Registry
from rooms.common import metrics
from rooms.common.ids import new_connection_id, new_worker_id, worker_of
from rooms.errors import ErrorCode, RoomError
from rooms.presence.rooms import TRANSIENT, LocalRooms
from rooms.room.commands import Join
from rooms.service import Executed, RoomService

__all__ = ["TRANSIENT", "LeaseLost", "LostHandler", "Presence"]

log = logging.getLogger("tictactoe.rooms")

LostHandler = Callable[[], None]
"""Called when the lease a connection was made under is lost: close that connection."""


class LeaseLost(RoomError):
    """This worker's lease is gone (or about to be replaced): the connection must resume."""

    def __init__(self) -> None:
        super().__init__(
            ErrorCode.UNAVAILABLE,
            "this server lost its presence lease and is registering again; reconnect and resume",
        )


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
        self.worker = new_worker_id()
        """This worker's current id (a new one after each lost lease)."""
        self._registered = False
        self._renewed = -math.inf  # clock() when the last renewal that landed was SENT
        self._rooms = LocalRooms(registry, service, max_pending=max_pending)
        self._held: dict[str, LostHandler] = {}  # connection id -> its close handler
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
        return self._rooms.pending()

    # -- the lease ------------------------------------------------------------------------

    async def start(self) -> None:
        """Register, then beat in the background every ``ttl / 3`` seconds.

        The store was reachable a moment ago (the backend opened), so a refused registration
        is most likely a failover under way (NOREPLICAS, READONLY): it is retried for up to
        one lease length before the RoomError is let go and the worker does not start.
        """
        loop = asyncio.get_running_loop()  # real time, as the pauses (a test clock may stand)
        give_up = loop.time() + self._ttl
        pause = 0.05
        while True:
            try:
                await self._register()
                break
            except RoomError as exc:
                if exc.code != ErrorCode.UNAVAILABLE or loop.time() + pause > give_up:
                    raise
                log.warning("presence: cannot register yet (%s); retrying", exc.message)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 1.0)
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
                async with asyncio.timeout(self._pause()):
                    await self._wake.wait()
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                await self.beat()
            except Exception:  # the heartbeat must outlive any one failure
                log.exception("presence: a heartbeat failed")

    def _pause(self) -> float:
        """Seconds to the next heartbeat: a third of the lease, and never past the moment
        the lease runs out unrenewed (a worker cut off from the store closes its connections
        then, so that their clients resume elsewhere instead of hearing nothing)."""
        if not self._registered:
            return self._ttl / 3
        return max(0.0, min(self._ttl / 3, self._renewed + self._ttl - self._clock()))

    async def beat(self) -> None:
        """One heartbeat: renew the lease, or find it gone and start over under a new id
        (closing the old id's connections); then, if the store answered, retry the
        unrecorded departures (one that fails stops them: rooms.presence.rooms)."""
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
            return  # the store is out of reach: the departures wait for a beat that reaches it
        await self._rooms.retry()

    async def _lose(self, old: str, reason: str) -> None:
        if old != self.worker:
            return  # already replaced (a join found out at the same moment)
        self.worker, self._registered = new_worker_id(), False
        self.losses += 1
        metrics.sink.lease_lost()
        closing = [handler for conn, handler in self._held.items() if worker_of(conn) == old]
        log.warning(
            "presence: worker %s lost its lease (%s): closing its %d connections so they "
            "resume; registering as %s",
            old,
            reason,
            len(closing),
            self.worker,
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
        await self._rooms.retry()
        if self._registered:
            self._registered = False
            try:
                await self._registry.release(self.worker)
            except RoomError as exc:
                log.warning("presence: could not release the lease: %s", exc.message)

    # -- connections ----------------------------------------------------------------------

    def _current(self, conn: str) -> str:
        """``conn``'s worker id; LeaseLost unless that is ours, and our lease alive."""
        worker = worker_of(conn)
        if worker is None or worker != self.worker or not self.alive:
            raise LeaseLost()
        return worker

    def check(self, conn: str) -> None:
        """LeaseLost unless ``conn`` was made under this worker's lease and that lease is
        alive: asked before a join does anything, so that a worker cut off from the store
        sends its clients elsewhere at once rather than after the store's timeout."""
        self._current(conn)

    async def _gone(self, worker: str) -> LeaseLost:
        """The registry found ``worker``'s lease gone when a connection joined."""
        await self._lose(worker, "it was gone when a connection joined")
        self._wake.set()  # register the new id now, not at the next beat
        return LeaseLost()

    async def enter(self, room_id: str, conn: str, on_lost: LostHandler) -> None:
        """``conn`` is about to join ``room_id``: index the room (first local connection
        there). LeaseLost when ``conn`` was made under a lease that is no longer ours."""
        worker = self._current(conn)
        if not await self._rooms.enter(worker, room_id):
            raise await self._gone(worker)
        self._held[conn] = on_lost

    async def join(self, room_id: str, command: Join, on_lost: LostHandler) -> Executed:
        """``enter`` and execute ``command``, a local connection's Join; on one Redis the
        Join's own commit indexes the room (rooms.presence.rooms: one round trip fewer).
        LeaseLost: nothing was recorded. Any other error: the departure was recorded too
        (a commit whose answer was lost may have landed)."""
        conn = command.conn
        worker = self._current(conn)
        self._held[conn] = on_lost
        try:
            return await self._rooms.join(worker, room_id, command)
        except NotIndexed:
            self._held.pop(conn, None)
            raise await self._gone(worker) from None
        except BaseException:
            self._held.pop(conn, None)
            raise

    async def leave(
        self, room_id: str, conn: str, *, deliberate: bool = False, spectator: bool = False
    ) -> bool:
        """Record that ``conn`` left ``room_id`` (``Leave`` through the service) and unindex
        the room after the last local connection there. False when it could not be
        recorded now: it is retried at every heartbeat, the room staying indexed.
        ``spectator``: it watched, and may leave in one commit with others leaving."""
        self._held.pop(conn, None)
        return await self._rooms.leave(room_id, conn, deliberate, spectator=spectator)
