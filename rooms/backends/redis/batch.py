"""Auto-pipelining: the worker's hot Redis commands share round trips.

A busy worker has many commands to send at once (commits, loads, presence index writes
of many rooms). Sent one by one, each pays redis-py's whole per-command path (a pooled
connection taken and given back, a retry wrapper, timers, a write and a read) and a round
trip of its own. ``AutoPipeline`` queues them instead: the commands issued while a batch
is on the wire (or within the same turn of the event loop) leave together as ONE pipeline
on one pooled connection, written at once, their replies read in order. Each caller gets
its own reply or its own error; a reply error (``NOSCRIPT``, ``OOM``, a wrong type) is that
command's alone, and the others of the batch are answered as usual.

Guarantees kept from the plain path:

* **Deadlines.** Callers wait on a future in a store block under ``guard``: the block's
  deadline, kept by one timer for all the blocks of one timeout (rooms.backends.redis.deadlines),
  not by an ``asyncio.timeout`` per call. A caller that gives up (deadline, cancel)
  leaves the batch untouched: if its command was not sent yet it never is, otherwise its
  reply is read and dropped. The batches themselves run in their own task, so no caller's
  cancel interrupts one.
* **Failures.** A broken or silent connection fails the whole batch: the pool's retry
  policy (redis-py's ``Retry``, as for a plain command) sends the unanswered commands
  again on a fresh connection, then every caller still waiting gets the same
  ``ConnectionError``/``TimeoutError`` that a plain command raises. A command whose answer
  was lost may have landed, exactly as on the plain path.
* **Scripts.** ``script`` sends ``EVALSHA`` alone (never redis-py ``Script`` objects,
  which would add ``SCRIPT EXISTS``/``LOAD`` to every pipeline). On ``NOSCRIPT`` (a Redis
  restarted or flushed) that one caller sends ``SCRIPT LOAD`` and its ``EVALSHA`` again,
  queued together in order: one more round trip, once, for that command only.
* **Round trips.** A command is one command on the wire whether batched or not (MONITOR
  shows each), and a batch costs at most one round trip for all of its commands.

Commands run in the order they were queued; only the batch boundaries move. They are packed
by rooms.backends.redis.resp (the bytes redis-py's ``pack_commands`` sends, for less CPU).
The kept connection is read by the wire (rooms.backends.redis.wire): hiredis fed by the socket,
each reply handed to its caller's future as it arrives, with no await per reply and no response
callbacks (the commands sent here need none). It speaks RESP2 for that (the pool's others speak
what the client was made with); a connection Redis closed while idle is known at once, and
replaced before the next batch is written.

``DirectCalls`` is the plain path, one redis-py call per command, each block under its own
``guarded`` deadline: a Redis Cluster's (its commands go to different nodes by slot), and
every Redis's when ``RedisOptions.auto_pipeline`` is off (``tictactoe serve --no-fastpath``).
``redis_calls`` chooses between the two.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import deque
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

import redis.asyncio as aioredis
from redis.asyncio.client import Redis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import InvalidResponse, NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from rooms.backends.redis.connect import guarded
from rooms.backends.redis.deadlines import Deadlines
from rooms.backends.redis.resp import Arg, pack_commands
from rooms.backends.redis.wire import RedisWire, take_over
from rooms.common import metrics

__all__ = ["AutoPipeline", "DirectCalls", "LuaScript", "RedisCalls", "redis_calls"]


MAX_BATCH = 256
"""Commands per round trip at most; more wait for the next one (bounded buffers)."""


@dataclass(frozen=True, slots=True)
class LuaScript:
    """A Lua script known by its SHA1, as ``EVALSHA`` names it."""

    source: str
    sha: str = field(init=False)
    evalsha: tuple[bytes, bytes] = field(init=False, repr=False)
    """``EVALSHA <sha>``, encoded once."""

    def __post_init__(self) -> None:
        sha = hashlib.sha1(self.source.encode()).hexdigest()
        object.__setattr__(self, "sha", sha)
        object.__setattr__(self, "evalsha", (b"EVALSHA", sha.encode()))


class RedisCalls(Protocol):
    """How the store and the presence registry send their hot commands."""

    async def call(self, *args: Arg) -> Any:
        """One command's raw reply; its ResponseError, or the connection's error, raised."""
        ...

    async def script(self, script: LuaScript, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        """``EVALSHA`` of ``script``, loading it first if Redis forgot it."""
        ...

    def guard(self, what: str, timeout: float) -> AbstractAsyncContextManager[None]:
        """``async with`` this around a store block whose calls go through here: its
        deadline (``timeout`` seconds for the whole block) and typed errors, as ``guarded``."""
        ...

    async def aclose(self) -> None: ...


class _Pending:
    __slots__ = ("args", "future")

    def __init__(self, args: tuple[Arg, ...], future: asyncio.Future[Any]) -> None:
        self.args = args
        self.future = future


class AutoPipeline:
    """Batches the commands of many concurrent callers on one Redis client's pool."""

    def __init__(self, client: aioredis.Redis, *, max_batch: int = MAX_BATCH) -> None:
        self._pool = client.connection_pool
        self._max_batch = max_batch
        self._queue: deque[_Pending] = deque()
        self._runner: asyncio.Task[None] | None = None
        self._deadlines: dict[float, Deadlines] = {}  # timeout -> one timer for its blocks
        self._connection: Any = None
        """The pool's connection this pipeline keeps (taken on the first batch, given back
        by ``aclose``): one batch at a time needs one, and the pool's checkout per batch
        cost as much CPU as the batch itself. A broken one reconnects on its next use."""
        self._protocol: Any = None  # the kept connection's own RESP version, for ``aclose``
        self._wire: RedisWire | None = None  # reads the kept connection (``_attach``)
        self._waiting: deque[_Pending] = deque()  # on the wire, in order, reply not read yet
        self._answered: asyncio.Future[None] | None = None  # the batch on the wire: all read
        self._loading: dict[str, asyncio.Future[Any]] = {}  # sha -> its SCRIPT LOAD
        self.batches = 0
        """Pipelines sent (each one round trip), retries included: for tests and stats."""
        self.commands = 0
        """Commands sent in them."""

    async def call(self, *args: Arg) -> Any:
        return await self._submit(args)

    async def script(self, script: LuaScript, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        command = (*script.evalsha, len(keys), *keys, *args)
        try:
            return await self._submit(command)
        except NoScriptError:
            # Queued together, so the load runs first, in one more round trip. Callers of
            # one batch that all met NOSCRIPT share one load (shielded: one caller's cancel
            # must not cancel it for the others); gather retrieves both outcomes.
            load = self._loading.get(script.sha)
            if load is None or load.done():
                load = self._loading[script.sha] = self._submit(("SCRIPT", "LOAD", script.source))
            again = self._submit(command)
            _, reply = await asyncio.gather(asyncio.shield(load), again)
            return reply

    def guard(self, what: str, timeout: float) -> AbstractAsyncContextManager[None]:
        deadlines = self._deadlines.get(timeout)
        if deadlines is None:  # one per store or registry: each has a single timeout
            deadlines = self._deadlines[timeout] = Deadlines(timeout)
        return deadlines.guard(what)

    async def aclose(self) -> None:
        """Stop the batch on the wire, if any; callers still waiting are cancelled; no
        deadline timer is left armed."""
        for deadlines in self._deadlines.values():
            deadlines.close()
        runner = self._runner
        if runner is not None:
            runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)
        while self._queue:
            self._queue.popleft().future.cancel()
        connection, self._connection = self._connection, None
        if connection is not None:
            # Taken over by the wire and speaking RESP2: the pool gets it back closed, to
            # reconnect it as its own when it hands it out again.
            self._wire = None
            await connection.disconnect(nowait=True)
            connection.protocol = self._protocol
            await self._pool.release(connection)

    def _submit(self, args: tuple[Arg, ...]) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.append(_Pending(args, future))
        if self._runner is None:
            # Starts on the loop's next turn: whatever else is queued by then goes along.
            self._runner = loop.create_task(self._run())
        return future

    async def _run(self) -> None:
        try:
            while self._queue:
                batch: list[_Pending] = []
                while self._queue and len(batch) < self._max_batch:
                    pending = self._queue.popleft()
                    if not pending.future.done():  # its caller gave up: never sent
                        batch.append(pending)
                if batch:
                    await self._send(batch)
        finally:
            self._runner = None

    async def _send(self, batch: list[_Pending]) -> None:
        try:
            connection = self._connection
            if connection is None:
                connection = await self._pool.get_connection()  # type: ignore[no-untyped-call]
                self._connection, self._protocol = connection, connection.protocol

            async def broken(error: Exception) -> None:
                await connection.disconnect()  # the next attempt reconnects

            await connection.retry.call_with_retry(
                lambda: self._round_trip(connection, batch), broken
            )
        except BaseException as exc:
            for pending in batch:
                if pending.future.done():
                    continue
                if isinstance(exc, asyncio.CancelledError):
                    pending.future.cancel()
                else:
                    pending.future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise

    async def _round_trip(self, connection: Any, batch: list[_Pending]) -> None:
        # On a retry only what is still unanswered, and still wanted, goes again.
        sending = [pending for pending in batch if not pending.future.done()]
        if not sending:
            return
        self.batches += 1
        self.commands += len(sending)
        encoder = connection.encoder
        packed = pack_commands(
            [pending.args for pending in sending], encoder.encoding, encoder.encoding_errors
        )
        # The socket timeout bounds the batch as a whole, (re)connecting included: one timer
        # per batch, not one per reply. The replies are handed to ``_reply`` as they arrive.
        started = time.perf_counter()
        try:
            async with asyncio.timeout(connection.socket_timeout):
                wire = self._wire
                if wire is None or wire.closing:
                    wire = await self._attach(connection)
                answered = self._answered = asyncio.get_running_loop().create_future()
                self._waiting.extend(sending)
                wire.write(packed)
                if wire.paused:
                    await wire.drain()
                await answered
            metrics.sink.redis_round_trip(time.perf_counter() - started)
        except TimeoutError:  # replies may still come: never reuse the connection
            if self._wire is not None:
                self._wire.abort()
            raise RedisTimeoutError("Timeout writing to or reading from Redis") from None

    async def _attach(self, connection: Any) -> RedisWire:
        """Put the kept connection on a wire: reconnected if its last wire ended, and made
        RESP2 (pooled connections speak what the client was made with) on the first use."""
        if self._wire is not None:  # it ended: so did the connection, for redis-py too
            self._wire = None
            await connection.disconnect(nowait=True)
        if connection.protocol not in (2, "2"):
            await connection.disconnect(nowait=True)
            connection.protocol = 2
        await connection.connect()  # redis-py's handshake, unless still connected
        self._waiting.clear()
        wire = self._wire = take_over(connection, self._reply)
        wire.closed.add_done_callback(lambda closed: self._lost(wire, closed.result()))
        return wire

    def _reply(self, reply: Any) -> None:
        """The next reply, in order: its caller's result or error, if still wanted."""
        if not self._waiting:
            raise InvalidResponse("a reply from Redis that no command asked for")
        if isinstance(reply, Exception) and not isinstance(reply, ResponseError):
            raise reply  # e.g. LOADING: the connection's failure, not the command's
        future = self._waiting.popleft().future
        if not future.done():
            if isinstance(reply, ResponseError):
                future.set_exception(reply)
            else:
                future.set_result(reply)
        if not self._waiting and self._answered is not None and not self._answered.done():
            self._answered.set_result(None)

    def _lost(self, wire: RedisWire, cause: Exception) -> None:
        """The wire ended: the batch on it fails with the cause (the retry policy decides)."""
        if wire is self._wire and self._answered is not None and not self._answered.done():
            self._answered.set_exception(cause)


class DirectCalls:
    """The plain path, one redis-py call per command: for a Redis Cluster, whose commands
    go to the node of their slot (redis-py's cluster client routes and redirects them),
    and for one Redis when auto-pipelining is off (``RedisOptions.auto_pipeline``)."""

    def __init__(self, client: RedisCluster | Redis) -> None:
        self._client = client
        self._scripts: dict[str, AsyncScript] = {}

    async def call(self, *args: Arg) -> Any:
        started = time.perf_counter()
        reply = await self._client.execute_command(*args)
        metrics.sink.redis_round_trip(time.perf_counter() - started)
        return reply

    async def script(self, script: LuaScript, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        registered = self._scripts.get(script.sha)
        if registered is None:  # redis-py's own EVALSHA with its NOSCRIPT reload
            registered = self._scripts[script.sha] = self._client.register_script(script.source)
        started = time.perf_counter()
        reply = await registered(keys=list(keys), args=list(args))
        metrics.sink.redis_round_trip(time.perf_counter() - started)
        return reply

    def guard(self, what: str, timeout: float) -> AbstractAsyncContextManager[None]:
        return guarded(what, timeout)

    async def aclose(self) -> None:
        return None


def redis_calls(client: Redis | RedisCluster, *, auto_pipeline: bool = True) -> RedisCalls:
    """Auto-pipelining for one Redis; the plain path for a Cluster, or when
    ``auto_pipeline`` is off."""
    if isinstance(client, RedisCluster) or not auto_pipeline:
        return DirectCalls(client)
    return AutoPipeline(client)
