"""The bus's one pub/sub connection: commands written and replies read, both ways.

``BusLink`` is the half of ``RedisBus`` (rooms.backends.redis.bus) that touches the socket:
on the fast path (``RedisOptions.auto_pipeline``) a ``RedisWire`` writes the packed
commands and hands over each reply hiredis parses as the socket delivers it; off
(``--no-fastpath``), redis-py's connection writes them and the reader reads replies one by
one. Either way a quiet connection is PINGed and a silent one given up by the health watch,
and every reply goes to ``_dispatch``, which the bus defines. Writes are bounded by the
connection's own socket timeout; a failed write is left to the reader, which reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections import Counter
from typing import Any

import redis.asyncio as aioredis
from redis import exceptions as rx
from redis.asyncio.connection import AbstractConnection

from rooms.backends.redis.connect import RedisClient, RedisOptions
from rooms.backends.redis.health import HealthWatch
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.redis.resp import pack_commands
from rooms.backends.redis.wire import RedisWire

__all__ = ["BROKEN", "BusLink"]

BROKEN = (rx.RedisError, OSError, TimeoutError)
"""What a broken or silent connection raises: the reader reconnects."""


class BusLink:
    """Writing to and reading from the bus's connection (see the module); the attributes
    are ``RedisBus``'s, set by its constructor and its reader (``_run``)."""

    options: RedisOptions
    sent: Counter[str]
    _client: RedisClient
    _layout: KeyLayout
    _conn: AbstractConnection | None
    _wire: RedisWire | None
    _write_timeout: float | None
    _health_interval: float
    _health_timeout: float
    _closing: bool

    def _dispatch(self, reply: Any) -> None:
        """One reply: a message, a confirmation or another kind (``RedisBus``)."""
        raise NotImplementedError

    async def _send(self, *args: str) -> None:
        await self._send_all([args])

    async def _send_all(self, commands: list[tuple[str, ...]]) -> None:
        """Send ``commands`` in one write on the live connection; a failure is left to the
        reader, which reconnects and resubscribes everything.

        The connection's socket timeout is off once it is connected (``_run``), and the
        write is bounded here: with one, redis-py writes through ``asyncio.wait_for``, a
        task of its own for every SUBSCRIBE and UNSUBSCRIBE. The reader's reads set no
        timeout. On the fast path the bytes go to the wire, which waits only while the
        socket takes no more (``RedisWire.drain``), under the same bound."""
        wire = self._wire
        if wire is not None:
            await self._send_wire(wire, commands)
            return
        conn = self._conn
        if conn is None or not conn.is_connected:
            return
        for command in commands:
            self.sent[command[0]] += 1
        # our RESP packer, or redis-py's own (the same bytes) with auto-pipelining off
        packed: bytes | list[bytes] = (
            pack_commands(commands) if self.options.auto_pipeline else conn.pack_commands(commands)
        )
        with contextlib.suppress(*BROKEN):
            try:
                async with asyncio.timeout(self._write_timeout):
                    await conn.send_packed_command(packed, check_health=False)
            except TimeoutError:  # the write may be half done: never reuse the connection
                await conn.disconnect(nowait=True)
                raise

    async def _send_wire(self, wire: RedisWire, commands: list[tuple[str, ...]]) -> None:
        if wire.closing:
            return
        for command in commands:
            self.sent[command[0]] += 1
        with contextlib.suppress(*BROKEN):
            wire.write(pack_commands(commands))
            if not wire.paused:
                return
            try:
                async with asyncio.timeout(self._write_timeout):
                    await wire.drain()
            except TimeoutError:  # the write may be half done: never reuse the connection
                wire.abort()
                raise

    def _new_connection(self) -> AbstractConnection:
        # A Cluster shard overrides this; here the client is one Redis with one pool.
        assert isinstance(self._client, aioredis.Redis)
        pool = self._client.connection_pool
        kwargs = dict(pool.connection_kwargs)
        # RESP2, so messages arrive as plain lists; maintenance push notifications need
        # RESP3 and concern pooled command connections, not this one.
        kwargs["protocol"] = 2
        kwargs["client_name"] = f"{self._layout.prefix}-bus"  # findable in CLIENT LIST
        kwargs.pop("maint_notifications_config", None)
        kwargs.pop("maint_notifications_pool_handler", None)
        connection: AbstractConnection = pool.connection_class(**kwargs)
        return connection

    async def _read(self, conn: AbstractConnection) -> None:
        """Hand over every reply until the connection breaks or goes silent.

        No deadline per read (a timer armed and cancelled per message): the health watch
        (``health``) PINGs a quiet connection and, after ``health_timeout`` of silence,
        cancels the read and raises TimeoutError: the caller reconnects."""
        clock = asyncio.get_running_loop().time
        async with HealthWatch(
            interval=self._health_interval,
            timeout=self._health_timeout,
            ping=lambda: self._send("PING"),
        ) as watch:
            while not self._closing:
                # math.inf: no timer at all (None would mean the socket timeout)
                reply = await conn.read_response(timeout=math.inf)
                watch.heard = clock()
                self._dispatch(reply)

    async def _read_wire(self, wire: RedisWire) -> None:
        """``_read`` on the fast path: the wire hands over each reply as it arrives, and this
        waits for the connection's end (or the health watch's verdict), raising its cause."""
        clock = asyncio.get_running_loop().time
        take = self._take
        async with HealthWatch(
            interval=self._health_interval,
            timeout=self._health_timeout,
            ping=lambda: self._send("PING"),
        ) as watch:

            def heard(reply: Any) -> None:
                watch.heard = clock()
                take(reply)

            wire.on_reply = heard
            try:
                cause = await wire.closed
            finally:
                wire.on_reply = take
            raise cause

    def _take(self, reply: Any) -> None:
        """A reply from the wire: an error reply breaks the connection, as redis-py's
        ``read_response`` raising it does on the plain path."""
        if isinstance(reply, Exception):
            raise reply
        self._dispatch(reply)
