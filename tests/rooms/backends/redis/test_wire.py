"""The lean Redis intake (rooms.backends.redis.wire) against a real redis-server: replies cut
anywhere across reads arrive whole and in order, error replies arrive as redis-py's exceptions,
writes wait while Redis reads nothing, every end of the connection is reported, and redis-py's
handshake holds for every kind of URL (a login, a database, TLS, a unix socket).

Each test runs on both event loops the server may use (asyncio's and uvloop's, whose
transports are not asyncio's classes), each in a loop of its own (``run``).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
import uvloop
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError

from rooms.backends.redis.bus import RedisBus
from rooms.backends.redis.resp import Arg, pack_commands
from rooms.backends.redis.wire import RedisWire, take_over
from tests.support.redis_server import RedisServer, free_port
from tests.support.waiting import eventually

pytestmark = [pytest.mark.redis, pytest.mark.parametrize("loop", ["asyncio", "uvloop"])]

BOUND = 10.0  # a safety net so a hang fails the test instead of stalling the suite
PREFIX = "wire"


def run(loop: str, scenario: Callable[[], Awaitable[None]]) -> None:
    async def main() -> None:
        await asyncio.wait_for(scenario(), 4 * BOUND)

    if loop == "uvloop":
        uvloop.run(main())
    else:
        asyncio.run(main())


class Replies:
    """A wire's consumer: every reply it was handed, in order."""

    def __init__(self) -> None:
        self.got: list[Any] = []

    def __call__(self, reply: Any) -> None:
        self.got.append(reply)

    async def count(self, wanted: int) -> list[Any]:
        await eventually(lambda: len(self.got) >= wanted, f"{wanted} replies", timeout=BOUND)
        return self.got


async def wired(url: str, on_reply: Callable[[Any], None]) -> tuple[AbstractConnection, RedisWire]:
    """A connection made as the bus makes its own (RESP2, named ``wire-bus``), on a wire."""
    connection = RedisBus(url, prefix=PREFIX)._new_connection()
    await connection.connect()  # type: ignore[no-untyped-call]
    return connection, take_over(connection, on_reply)


def send(wire: RedisWire, *commands: tuple[Arg, ...]) -> None:
    wire.write(pack_commands(commands))


class Relay:
    """A TCP relay in front of a redis-server: the client's bytes pass at once; Redis's pass
    at once too until ``hold``, then only as many as ``forward`` says, each call a write of
    its own."""

    def __init__(self, port: int) -> None:
        self._port = port
        self._held = False
        self._pending = bytearray()
        self._arrived = asyncio.Event()
        self._client: asyncio.StreamWriter | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._writers: list[asyncio.StreamWriter] = []
        self.port = 0

    async def __aenter__(self) -> Relay:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._server.close()
        for task in self._tasks:
            task.cancel()
        for writer in self._writers:
            writer.close()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream = await asyncio.open_connection("127.0.0.1", self._port)
        self._client = writer
        self._writers += [writer, upstream]
        self._tasks.append(asyncio.create_task(self._up(reader, upstream)))
        self._tasks.append(asyncio.create_task(self._down(upstream_reader, writer)))

    @staticmethod
    async def _up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()

    async def _down(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            if self._held:
                self._pending += data
                self._arrived.set()
            else:
                writer.write(data)
                await writer.drain()

    def hold(self) -> None:
        self._held = True

    async def pending(self, wanted: int) -> None:
        """Wait until Redis sent ``wanted`` bytes that were not passed on yet."""
        async with asyncio.timeout(BOUND):
            while len(self._pending) < wanted:
                self._arrived.clear()
                await self._arrived.wait()

    async def forward(self, size: int) -> None:
        await self.pending(size)
        assert self._client is not None
        data = bytes(self._pending[:size])
        del self._pending[:size]
        self._client.write(data)
        await self._client.drain()
        await asyncio.sleep(0.02)  # the wire reads it before the next piece is sent


def test_a_reply_cut_anywhere_arrives_whole(redis_server: RedisServer, loop: str) -> None:
    value = "".join(chr(ord("a") + i % 26) for i in range(100_000))
    reply = b"$%d\r\n%s\r\n" % (len(value), value.encode())

    async def scenario() -> None:
        async with Relay(redis_server.port) as relay:
            replies = Replies()
            connection, wire = await wired(f"redis://127.0.0.1:{relay.port}/0", replies)
            try:
                send(wire, ("SET", "wire:split", value))
                assert await replies.count(1) == ["OK"]
                relay.hold()
                send(wire, ("GET", "wire:split"))
                await relay.pending(len(reply))
                # inside the header, after it, inside the value, then the last CR LF
                for size in (1, 4, 2, 40_000, len(reply) - 40_009, 1):
                    await relay.forward(size)
                    assert len(replies.got) == 1, "a reply handed over before it was whole"
                await relay.forward(1)
                assert await replies.count(2) == ["OK", value]
            finally:
                await connection.disconnect()

    run(loop, scenario)


def test_many_replies_in_one_read_arrive_in_order(redis_server: RedisServer, loop: str) -> None:
    async def scenario() -> None:
        async with Relay(redis_server.port) as relay:
            replies = Replies()
            connection, wire = await wired(f"redis://127.0.0.1:{relay.port}/0", replies)
            try:
                send(wire, ("DEL", "wire:count", "wire:list"))
                await replies.count(1)
                relay.hold()
                send(
                    wire,
                    *[("INCR", "wire:count")] * 50,
                    ("RPUSH", "wire:list", "a", "", "ccc"),
                    ("LRANGE", "wire:list", 0, -1),
                    ("HGET", "wire:none", "field"),
                )
                # 50 integer replies ":1" to ":50", then ":3", the list and a nil
                size = sum(len(b":%d\r\n" % n) for n in range(1, 51)) + 4
                size += len(b"*3\r\n$1\r\na\r\n$0\r\n\r\n$3\r\nccc\r\n") + len(b"$-1\r\n")
                await relay.forward(size)
                got = await replies.count(54)
                assert got[1:] == [*range(1, 51), 3, ["a", "", "ccc"], None]
            finally:
                await connection.disconnect()

    run(loop, scenario)


def test_error_replies_arrive_as_redis_pys_exceptions(redis_server: RedisServer, loop: str) -> None:
    async def scenario() -> None:
        replies = Replies()
        connection, wire = await wired(redis_server.url, replies)
        try:
            send(
                wire,
                ("SET", "wire:text", "not a number"),
                ("EVALSHA", "0" * 40, 0),
                ("INCR", "wire:text"),
                ("LPUSH", "wire:text", "x"),
                ("PING",),
            )
            ok, noscript, number, kind, pong = await replies.count(5)
            assert (ok, pong) == ("OK", "PONG")  # the wire goes on after an error
            assert isinstance(noscript, NoScriptError)
            assert type(number) is ResponseError and "not an integer" in str(number)
            assert type(kind) is ResponseError and str(kind).startswith("WRONGTYPE")
            assert not wire.closed.done()
        finally:
            await connection.disconnect()

    run(loop, scenario)


def test_a_connection_redis_closes_is_reported(redis_server: RedisServer, loop: str) -> None:
    async def scenario() -> None:
        replies = Replies()
        connection, wire = await wired(redis_server.url, replies)
        try:
            send(wire, ("CLIENT", "ID"))
            (client_id,) = await replies.count(1)
            redis_server.client().client_kill_filter(_id=client_id)
            cause = await asyncio.wait_for(wire.closed, BOUND)
            assert isinstance(cause, RedisConnectionError) and "closed by server" in str(cause)
            with pytest.raises(RedisConnectionError):
                send(wire, ("PING",))
            # redis-py's own stream saw the end too (its pool's health check looks there)
            assert connection._reader is not None and connection._reader.at_eof()
        finally:
            await asyncio.wait_for(connection.disconnect(), BOUND)

    run(loop, scenario)


def test_redis_pys_disconnect_ends_the_wire_and_returns(
    redis_server: RedisServer, loop: str
) -> None:
    """As a Sentinel failover does to every connection of a pool (``sentinel.watch``): the
    wire learns of it, and ``disconnect`` waits for the close as it does for its own."""

    async def scenario() -> None:
        connection, wire = await wired(redis_server.url, Replies())
        await asyncio.wait_for(connection.disconnect(), BOUND)
        assert not connection.is_connected
        cause = await asyncio.wait_for(wire.closed, BOUND)
        assert isinstance(cause, RedisConnectionError)

    run(loop, scenario)


def test_a_consumer_that_raises_ends_the_connection(redis_server: RedisServer, loop: str) -> None:
    async def scenario() -> None:
        seen: list[Any] = []

        def refuse_the_second(reply: Any) -> None:
            seen.append(reply)
            if len(seen) == 2:
                raise ValueError("refused")

        connection, wire = await wired(redis_server.url, refuse_the_second)
        try:
            send(wire, ("ECHO", "one"), ("ECHO", "two"), ("ECHO", "three"))
            cause = await asyncio.wait_for(wire.closed, BOUND)
            assert isinstance(cause, ValueError) and str(cause) == "refused"
            assert seen == ["one", "two"]
            sync = redis_server.client()
            await eventually(
                lambda: not [c for c in sync.client_list() if c["name"] == f"{PREFIX}-bus"],
                "Redis saw the connection close",
            )
        finally:
            await connection.disconnect()

    run(loop, scenario)


def test_writes_wait_while_redis_reads_nothing(own_redis_server: RedisServer, loop: str) -> None:
    big = "x" * (32 * 1024 * 1024)  # more than a loopback connection's socket buffers

    async def scenario() -> None:
        replies = Replies()
        connection, wire = await wired(own_redis_server.url, replies)
        try:
            own_redis_server.pause()
            try:
                send(wire, ("ECHO", big))
                assert wire.paused
                drained = asyncio.ensure_future(wire.drain())
                await asyncio.sleep(0.2)
                assert not drained.done()
            finally:
                own_redis_server.resume()
            await asyncio.wait_for(drained, BOUND)
            assert not wire.paused
            assert (await replies.count(1))[0] == big
        finally:
            await connection.disconnect()

    run(loop, scenario)


@pytest.fixture(scope="module")
def secured_redis(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, tuple[str, str]]]:
    """A redis-server with a login (ACL user), a TLS port and a unix socket: the URL of each
    (``plain``, ``tls``, ``unix``), each with the login and a database of its own."""
    directory = tmp_path_factory.mktemp("redis-secured")
    openssl = shutil.which("openssl")
    assert openssl is not None, "the TLS case needs the openssl command"
    key, cert = directory / "key.pem", directory / "cert.pem"
    subprocess.run(
        [
            *(openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    tls_port, socket = free_port(), directory / "redis.sock"
    extra = [
        *("--tls-port", str(tls_port), "--tls-cert-file", str(cert), "--tls-key-file", str(key)),
        *("--tls-ca-cert-file", str(cert), "--tls-auth-clients", "no"),
        *("--unixsocket", str(socket), "--unixsocketperm", "700"),
    ]
    with RedisServer(directory / "data", extra=extra) as server:
        server.client().acl_setuser(
            "wireuser", enabled=True, passwords=["+s3cret"], keys=["*"], commands=["+@all"]
        )
        login = "wireuser:s3cret@"
        yield {
            "plain": (f"redis://{login}127.0.0.1:{server.port}/3", "3"),
            "tls": (f"rediss://{login}127.0.0.1:{tls_port}/5?ssl_cert_reqs=none", "5"),
            "unix": (f"unix://{login}{socket}?db=7", "7"),
        }


@pytest.mark.parametrize("kind", ["plain", "tls", "unix"])
def test_the_handshake_is_redis_pys_for_every_kind_of_url(
    secured_redis: dict[str, tuple[str, str]], kind: str, loop: str
) -> None:
    url, database = secured_redis[kind]

    async def scenario() -> None:
        replies = Replies()
        connection, wire = await wired(url, replies)
        try:
            send(wire, ("CLIENT", "INFO"), ("SET", "wire:here", kind), ("GET", "wire:here"))
            info, ok, value = await replies.count(3)
            fields = dict(item.split("=", 1) for item in info.split())
            assert (fields["name"], fields["user"]) == (f"{PREFIX}-bus", "wireuser")
            assert fields["db"] == database and fields["resp"] == "2"
            assert (ok, value) == ("OK", kind)
        finally:
            with contextlib.suppress(RedisConnectionError):
                await connection.disconnect()

    run(loop, scenario)
