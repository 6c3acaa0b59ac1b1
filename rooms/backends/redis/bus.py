"""The Redis Bus: one pub/sub connection per worker, one channel per room with listeners.

Channels are reference counted (first subscription ``SUBSCRIBE``, last close ``UNSUBSCRIBE``).
``subscribe`` returns once Redis confirmed the channel, so every later event reaches it
(invariant 4); confirmations are counted per channel, so an unsubscribe racing a resubscribe
never marks a channel live too early. A channel whose last listener left lingers ``linger``
seconds, so a returning listener needs no command, and idle channels are then unsubscribed in
batches rather than one system call per departure.

One task reads the connection, with no timer per message; a health watch (``health``) PINGs it
when quiet. When it breaks or stays silent for ``health_timeout``, the task reconnects with
bounded backoff, resubscribes, and re-delivers each room's latest logged event: pub/sub is
at-most-once, so a listener that missed anything sees a version gap and re-reads the store.
With ``RedisOptions.auto_pipeline`` on (the fast path), the replies are parsed by hiredis as
the socket delivers them and dispatched right there (``wire``), and the task only waits for the
connection's end; off (``--no-fastpath``), it reads them one by one through redis-py.
Subscription buffers are bounded and drop on overflow. Command names and the ``_lost`` and
``_other`` hooks let the Cluster bus subclass this per shard (``cluster.bus``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any

from redis.asyncio.connection import AbstractConnection

from rooms.backends.bus import BufferedSubscription
from rooms.backends.redis.bus_link import BROKEN, BusLink
from rooms.backends.redis.connect import (
    RedisClient,
    RedisOptions,
    guarded,
    make_client,
    text,
    unavailable,
)
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.redis.wire import RedisWire, take_over
from rooms.common import metrics
from rooms.common.tasks import stop_task
from rooms.errors import ErrorCode, RoomError

__all__ = ["RedisBus", "RedisSubscription"]

log = logging.getLogger("tictactoe.rooms")

_CHUNK = 256  # channels per SUBSCRIBE command when resubscribing, per UNSUBSCRIBE
RESYNC_PAUSE = 0.05
"""Seconds before a failed resync is tried again, doubling up to a second."""
LINGER = 2.0
"""Seconds a channel stays subscribed after its last listener left (see the module)."""


class RedisSubscription(BufferedSubscription):
    def __init__(self, bus: RedisBus, room_id: str, buffer: int) -> None:
        super().__init__(room_id, buffer)
        self._bus = bus

    async def close(self) -> None:
        await self._bus._release(self)


class RedisBus(BusLink):
    _subscribe_command = "SUBSCRIBE"
    _unsubscribe_command = "UNSUBSCRIBE"
    _message_kind = "message"
    _confirm_kind = "subscribe"

    def __init__(
        self,
        url: str = "redis://127.0.0.1:6379/0",
        *,
        client: RedisClient | None = None,
        prefix: str = "ttt",
        options: RedisOptions | None = None,
        buffer: int = 1024,
        health_interval: float = 1.0,
        health_timeout: float = 3.0,
        linger: float = LINGER,
    ) -> None:
        if isinstance(linger, bool) or not isinstance(linger, int | float) or not linger >= 0:
            raise ValueError(f"linger must be a number of seconds, 0 or more, not {linger!r}")
        self.options = options or RedisOptions()
        self._layout = KeyLayout(prefix)
        self._own_client = client is None
        self._client: RedisClient = client if client is not None else make_client(url, self.options)
        self._buffer = buffer
        self._health_interval = health_interval
        self._health_timeout = max(health_timeout, health_interval)
        self._rooms: dict[str, set[RedisSubscription]] = {}
        self._ready: dict[str, asyncio.Event] = {}
        self._pending: dict[str, int] = {}  # SUBSCRIBEs sent and not yet confirmed
        self._resync_due: set[str] = set()  # resubscribed: redeliver once confirmed
        self._resync_batch: set[str] = set()
        self._resync_task: asyncio.Task[None] | None = None
        self._linger = float(linger)
        # Channels with no listener left, still subscribed, and the loop time from which
        # each may go; in that order, as the linger is the same for all.
        self._lingering: dict[str, float] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._conn: AbstractConnection | None = None
        self._wire: RedisWire | None = None  # the fast path's reader and writer of ``_conn``
        self._write_timeout: float | None = None  # the connection's own, taken by ``_run``
        self._connected = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self.connections = 0
        """How many times the pub/sub connection was (re)established."""
        self.resyncs = 0
        """How many latest events were redelivered after reconnects."""
        self.sent: Counter[str] = Counter()
        """Commands written, by name (PING included), for tests and the benchmarks."""

    # -- lifecycle ------------------------------------------------------------------------

    async def open(self) -> None:
        if self._reader is not None:
            return
        self._closing = False
        self._reader = asyncio.create_task(self._run(), name="redis-bus")
        try:
            async with asyncio.timeout(self.options.timeout):
                await self._connected.wait()
        except TimeoutError:
            await self.close()
            raise unavailable("bus", "cannot open the pub/sub connection") from None

    async def close(self) -> None:
        self._closing = True
        tasks = [t for t in (self._reader, self._resync_task, self._sweeper) if t is not None]
        self._reader = self._resync_task = self._sweeper = None
        for task in tasks:
            await stop_task(task)
        self._rooms.clear()
        self._ready.clear()
        self._lingering.clear()
        if self._own_client:
            await self._client.aclose()

    # -- the Bus protocol -----------------------------------------------------------------

    async def publish(self, room_id: str, message: str) -> None:
        async with guarded("publish", self.options.timeout):
            await self._client.publish(self._layout.channel(room_id), message)

    async def subscribe(self, room_id: str) -> RedisSubscription:
        if self._reader is None:
            raise RoomError(ErrorCode.UNAVAILABLE, "the bus is not open; retry in a moment")
        subscription = RedisSubscription(self, room_id, self._buffer)
        subscriptions = self._rooms.get(room_id)
        if subscriptions is None:
            self._rooms[room_id] = {subscription}
            if self._lingering.pop(room_id, None) is not None:
                ready = self._ready[room_id]  # still subscribed (or on its way): no command
            else:
                ready = self._ready[room_id] = asyncio.Event()
                await self._send_subscribe([room_id])
        else:
            subscriptions.add(subscription)
            ready = self._ready[room_id]
        try:
            async with asyncio.timeout(self.options.timeout):
                await ready.wait()
        except TimeoutError:
            await subscription.close()
            raise unavailable("subscribe", "Redis did not confirm the channel") from None
        return subscription

    def subscribers(self, room_id: str) -> int:
        return len(self._rooms.get(room_id, ()))

    def lingering(self) -> int:
        """Channels with no listener, still subscribed for a while (see the module)."""
        return len(self._lingering)

    async def _release(self, subscription: RedisSubscription) -> None:
        room_id = subscription.room_id
        subscriptions = self._rooms.get(room_id)
        if subscriptions is None or subscription not in subscriptions:
            return
        subscriptions.discard(subscription)
        if subscriptions:
            return
        del self._rooms[room_id]
        if self._linger > 0 and self._reader is not None:
            self._lingering[room_id] = asyncio.get_running_loop().time() + self._linger
            if self._sweeper is None or self._sweeper.done():
                self._sweeper = asyncio.create_task(
                    self._unsubscribe_unused(), name="redis-bus-linger"
                )
            return
        self._forget(room_id)
        await self._send_unsubscribe([room_id])

    def _forget(self, room_id: str) -> None:
        self._ready.pop(room_id, None)
        self._resync_due.discard(room_id)

    async def _unsubscribe_unused(self) -> None:
        """Unsubscribe, a batch at a time, the channels that lingered long enough."""
        clock = asyncio.get_running_loop().time
        while self._lingering and not self._closing:
            await asyncio.sleep(self._linger / 4)
            now, due = clock(), []
            for room_id, until in self._lingering.items():
                if until > now:
                    break
                due.append(room_id)
            for room_id in due:
                del self._lingering[room_id]
                self._forget(room_id)
            if due:
                await self._send_unsubscribe(due)

    # -- the connection (writing and reading: BusLink) -------------------------------------

    async def _send_subscribe(self, room_ids: list[str]) -> None:
        if self._conn is None:
            return  # the reader subscribes every room once it is connected again
        for room_id in room_ids:
            self._pending[room_id] = self._pending.get(room_id, 0) + 1
        await self._send(self._subscribe_command, *(self._layout.channel(r) for r in room_ids))

    async def _send_unsubscribe(self, room_ids: list[str]) -> None:
        channels = [self._layout.channel(room_id) for room_id in room_ids]
        await self._send_all(
            [
                (self._unsubscribe_command, *channels[start : start + _CHUNK])
                for start in range(0, len(channels), _CHUNK)
            ]
        )

    async def _run(self) -> None:
        delay = 0.05
        while not self._closing:
            conn: AbstractConnection | None = None
            wire: RedisWire | None = None
            try:
                conn = self._new_connection()
                await conn.connect()  # type: ignore[no-untyped-call]  # unannotated upstream
                # The handshake's replies were read under the socket timeout; from here on
                # it would bound only the writes, which ``_send`` bounds itself.
                self._write_timeout, conn.socket_timeout = conn.socket_timeout, None
                if self.options.auto_pipeline:  # before anything is sent: it reads the replies
                    wire = take_over(conn, self._take)
                self.connections += 1
                # No await between taking the room list and publishing the connection, so
                # a concurrent subscribe is either in this batch or sends its own.
                self._pending.clear()
                for room_id in self._lingering:  # not subscribed on the new connection
                    self._forget(room_id)
                self._lingering.clear()
                for event in self._ready.values():
                    event.clear()
                rooms = list(self._rooms)
                if self.connections > 1:  # a reconnect: any room may have missed messages
                    self._resync_due = set(rooms)
                    metrics.sink.bus_reconnect()
                # (On the first connection no subscribe has returned yet, so nothing was
                # missed; only rooms handed over from elsewhere are already marked.)
                self._conn, self._wire = conn, wire
                self._connected.set()
                for start in range(0, len(rooms), _CHUNK):
                    await self._send_subscribe(rooms[start : start + _CHUNK])
                delay = 0.05
                if wire is None:
                    await self._read(conn)
                else:
                    await self._read_wire(wire)
            except BROKEN as exc:
                log.warning("redis bus: connection lost (%s); reconnecting", exc)
            except Exception:  # never let one bad reply end the worker's only reader
                log.exception("redis bus: reader failed; reconnecting")
            finally:
                self._conn = self._wire = None
                self._connected.clear()
                if conn is not None:
                    await conn.disconnect(nowait=True)
            self._lost()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    def _dispatch(self, reply: Any) -> None:
        if not isinstance(reply, list) or len(reply) < 2:
            return
        kind = text(reply[0]).lower()
        room_id = self._layout.room_of_channel(text(reply[1]))
        if room_id is None:
            return
        if kind == self._message_kind and len(reply) >= 3:
            message = text(reply[2])
            for subscription in tuple(self._rooms.get(room_id, ())):
                subscription._offer(message)
        elif kind == self._confirm_kind:
            left = self._pending.get(room_id, 0) - 1
            if left > 0:
                self._pending[room_id] = left
                return
            self._pending.pop(room_id, None)
            ready = self._ready.get(room_id)
            if ready is not None:
                ready.set()
            if room_id in self._resync_due:
                self._resync_due.discard(room_id)
                self._resync_now(room_id)
        else:
            self._other(kind, room_id)

    def _resync_now(self, room_id: str) -> None:
        """Redeliver the room's latest logged event soon (with the others of its batch)."""
        self._resync_batch.add(room_id)
        if self._resync_task is None or self._resync_task.done():
            self._resync_task = asyncio.create_task(self._resync(), name="redis-resync")

    def _lost(self) -> None:
        """The connection broke or could not be made (a subclass may look for a new
        route); the reader reconnects after a backoff either way."""

    def _other(self, kind: str, room_id: str) -> None:
        """A reply other than a message or a subscribe confirmation, about ``room_id``."""

    async def _resync(self) -> None:
        """Redeliver each resubscribed room's latest logged event (the "gap" signal). A read
        that fails is tried again (Redis answering again after a failover or a partition):
        that event may be a game's last, after which nothing else would show the gap."""
        pause = RESYNC_PAUSE
        for _ in range(100):
            await asyncio.sleep(0)  # let the other confirmations of the batch arrive
            rooms, self._resync_batch = list(self._resync_batch), set()
            if not rooms:
                return
            try:
                latest = await self._latest(rooms)
            except RoomError as exc:
                log.warning("redis bus: resync failed: %s; trying again", exc.message)
                # Rooms no longer held need none; a reconnect meanwhile marks them all again.
                self._resync_batch.update(room for room in rooms if room in self._rooms)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 1.0)
                continue
            pause = RESYNC_PAUSE
            for room_id, last in zip(rooms, latest, strict=True):
                if last is None:
                    continue
                for subscription in tuple(self._rooms.get(room_id, ())):
                    subscription._offer(text(last))
                    self.resyncs += 1
                    metrics.sink.resync("bus")

    async def _latest(self, rooms: list[str]) -> list[Any]:
        """Each room's latest logged event (None: an empty log), in one round trip."""
        async with (
            guarded("resync", self.options.timeout),
            self._client.pipeline(transaction=False) as pipe,
        ):
            for room_id in rooms:
                pipe.lindex(self._layout.room(room_id).log, -1)
            latest: list[Any] = await pipe.execute()
        return latest
