"""A connection's outgoing side costs nothing while idle: no writer task, no queue object.

Counted, not timed: the tasks alive before, during and after a burst of sends; the order
and bound of the queue (invariant 8) and the flush before the close frame stay as before.
"""

from __future__ import annotations

import asyncio
from typing import Any

from server.close_codes import CloseCode
from server.connection import Connection


class FakeSocket:
    """Records what is sent; ``gate`` (when set) holds every send until it opens."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.gate: asyncio.Event | None = None

    async def send_text(self, text: str) -> None:
        if self.gate is not None:
            await self.gate.wait()
        self.sent.append(text)

    async def close(self, code: int, reason: str = "") -> None:
        self.closed = (code, reason)


def make(queue_size: int = 4) -> tuple[Connection, FakeSocket]:
    socket = FakeSocket()
    websocket: Any = socket
    return Connection(websocket, queue_size=queue_size, conn_id="w.c"), socket


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_an_idle_connection_holds_no_task() -> None:
    before = len(asyncio.all_tasks())
    conns = [make() for _ in range(50)]
    assert len(asyncio.all_tasks()) == before  # nothing to send: no writer
    for conn, _ in conns:
        assert conn.send("a") and conn.send("b")
    assert len(asyncio.all_tasks()) == before + 50  # one writer each while sending
    await settle()
    assert len(asyncio.all_tasks()) == before  # drained: the writers ended
    assert all(socket.sent == ["a", "b"] for _, socket in conns)
    conn, socket = conns[0]
    assert conn.send("c")  # a new burst starts a new writer, in order
    await settle()
    assert socket.sent == ["a", "b", "c"] and conn.sent == 3


async def test_a_client_that_does_not_read_is_dropped_and_nobody_waits() -> None:
    conn, socket = make(queue_size=3)
    socket.gate = asyncio.Event()
    ended: list[bool] = []
    conn.on_end = lambda: ended.append(True)
    assert conn.send("first")  # taken by the writer, which then waits on the socket
    await settle()
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
