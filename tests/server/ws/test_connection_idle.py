"""A connection's outgoing side costs nothing while idle: no writer task, no queue object.

Counted, not timed: frames the socket takes at once are written on the sender's turn with
no task; a socket that makes the sender wait gets a writer task for as long as it does;
the order and bound of the queue (invariant 8) and the flush before the close frame stay
as before.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from server.ws.close_codes import CloseCode
from server.ws.connection import Connection
from tests.support.waiting import eventually


class FakeSocket:
    """Records what is sent; ``gate`` (when set) holds every send until it opens;
    ``waiting`` counts the sends held there now."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.gate: asyncio.Event | None = None
        self.waiting = 0

    async def send_text(self, text: str) -> None:
        if self.gate is not None:
            self.waiting += 1
            try:
                await self.gate.wait()
            finally:
                self.waiting -= 1
        self.sent.append(text)

    async def close(self, code: int, reason: str = "") -> None:
        self.closed = (code, reason)


def make(queue_size: int = 4) -> tuple[Connection, FakeSocket]:
    socket = FakeSocket()
    websocket: Any = socket
    return Connection(websocket, queue_size=queue_size, conn_id="w.c"), socket


async def test_an_idle_connection_holds_no_task() -> None:
    before = len(asyncio.all_tasks())
    conns = [make() for _ in range(50)]
    assert len(asyncio.all_tasks()) == before  # nothing to send: no writer
    for conn, socket in conns:
        assert conn.send("a") and conn.send("b")
        assert socket.sent == ["a", "b"]  # the socket took them at once: no loop turn
    assert len(asyncio.all_tasks()) == before  # and no task either
    conn, socket = conns[0]
    assert conn.send("c")
    assert socket.sent == ["a", "b", "c"] and conn.sent == 3


async def test_a_socket_that_makes_the_sender_wait_gets_a_writer_and_the_order_holds() -> None:
    conn, socket = make(queue_size=8)
    socket.gate = asyncio.Event()
    before = len(asyncio.all_tasks())
    assert conn.send("a")  # the socket waits: a writer takes over this send
    assert len(asyncio.all_tasks()) == before + 1
    assert conn.send("b") and conn.send("c")  # queued behind it, in order
    await eventually(lambda: socket.waiting == 1, "the writer waiting at the socket")
    assert socket.sent == [] and conn.sent == 0
    socket.gate.set()
    await eventually(lambda: conn.sent == 3, "the three sent once the socket takes them")
    assert socket.sent == ["a", "b", "c"] and conn.sent == 3
    assert len(asyncio.all_tasks()) == before  # drained: the writer ended
    socket.gate = None
    assert conn.send("d") and socket.sent[-1] == "d"  # at once again
    assert len(asyncio.all_tasks()) == before


class GoneSocket(FakeSocket):
    """The peer went away: every send fails as uvicorn's does (an OSError)."""

    async def send_text(self, text: str) -> None:
        if self.gate is not None:
            await self.gate.wait()
        raise OSError("client disconnected")


async def test_a_send_to_a_peer_that_went_away_ends_the_connection_without_a_close_code() -> None:
    for gated in (False, True):
        socket = GoneSocket()
        websocket: Any = socket
        conn = Connection(websocket, queue_size=4, conn_id="w.c")
        if gated:
            socket.gate = asyncio.Event()
        ended: list[bool] = []
        conn.on_end = functools.partial(ended.append, True)
        result = conn.send("a")
        if gated:  # the failure comes in the writer, after the wait
            assert result and not conn.ended
            conn.send("b")
            socket.gate.set()  # type: ignore[union-attr]
            await eventually(lambda conn=conn: conn.ended, "the connection ended by the writer")
        else:
            assert not result
        assert conn.ended and conn.close_code is None and ended == [True]
        assert not conn.send("after") and conn.sent == 0
        await conn.close(0.05)
        assert socket.closed is None  # nobody to send a close frame to


async def test_a_client_that_does_not_read_is_dropped_and_nobody_waits() -> None:
    conn, socket = make(queue_size=3)
    socket.gate = asyncio.Event()
    ended: list[bool] = []
    conn.on_end = lambda: ended.append(True)
    assert conn.send("first")  # taken by the writer, which then waits on the socket
    await eventually(lambda: socket.waiting == 1, "the writer waiting at the socket")
    assert all(conn.send(f"m{i}") for i in range(3))  # the queue holds 3
    assert not conn.send("one too many")
    assert conn.ended and conn.close_code == CloseCode.TOO_SLOW and ended == [True]
    assert not conn.send("after the end")
    await conn.close(0.05)  # too slow: no flush; the close is attempted, bounded
    assert socket.sent == [] and socket.closed is not None
    assert socket.closed[0] == CloseCode.TOO_SLOW


async def test_close_flushes_what_is_queued_before_the_close_frame() -> None:
    conn, socket = make()
    for text in ("x", "y", "z"):
        conn.send(text)
    conn.end(CloseCode.NORMAL, "left")
    await conn.close(1.0)
    assert socket.sent == ["x", "y", "z"] and socket.closed == (CloseCode.NORMAL, "left")
    assert len(asyncio.all_tasks()) == 1  # only the test's own task is left


async def test_frames_go_to_the_servers_own_send_when_the_scope_carries_it() -> None:
    from server.fastpath.raw_send import SCOPE_KEY, RawSend, server_send

    messages: list[dict[str, Any]] = []

    async def asgi_send(message: dict[str, Any]) -> None:
        messages.append(message)

    seen: dict[str, Any] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.update(scope)

    await RawSend(app)({"type": "websocket"}, None, asgi_send)  # type: ignore[arg-type]
    assert seen[SCOPE_KEY] is asgi_send
    http: dict[str, Any] = {"type": "http"}
    await RawSend(app)(http, None, asgi_send)  # type: ignore[arg-type]
    assert SCOPE_KEY not in http  # HTTP responses keep Starlette's own send

    scoped: Any = FakeSocket()
    scoped.scope = {SCOPE_KEY: asgi_send}
    conn = Connection(scoped, queue_size=4, conn_id="w.c")
    assert conn.send("hello") and messages == [{"type": "websocket.send", "text": "hello"}]
    assert scoped.sent == []  # not through send_text
    plain = FakeSocket()
    assert server_send(plain) is None  # a stand-in socket: its own send_text
    assert server_send(scoped) is asgi_send
