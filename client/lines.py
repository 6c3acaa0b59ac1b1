"""One WebSocket of a room, in asyncio: open and join it bare, or keep it with a reader.

``open_joined`` opens one socket and sends one ``join``, and hands back the bare
``websockets`` connection with its answer: a load generator keeps its own hot loop on it
(bench.load). A ``Line`` is one connection of a client.aio.AsyncRoomClient: its reader keeps
the replies (``welcome``, ``move_ok``, ``error``...) for ``reply`` and hands every message to
its owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any, Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from .wire import Message

__all__ = ["Line", "LineOwner", "open_joined"]


async def open_joined(
    url: str, join: Message, *, answer_wait: float | None = None, **options: Any
) -> tuple[ClientConnection, Message]:
    """Open ``url`` (a room socket), send ``join``; the connection and its answer: the
    ``welcome``, or the ``error`` (the connection is then left open: the caller may join again
    or close it). ``options`` go to ``websockets``' ``connect`` (``proxy`` defaults to None:
    loopback benches never want the environment's proxy). Events sent before the answer
    (none, by the protocol) are skipped."""
    options.setdefault("proxy", None)
    ws = await connect(url, **options)
    try:
        await ws.send(json.dumps(join))
        while True:
            answer = json.loads(await asyncio.wait_for(ws.recv(), answer_wait))
            if isinstance(answer, dict) and answer.get("type") in ("welcome", "error"):
                return ws, answer
    except BaseException:
        await ws.close()
        raise


class LineOwner(Protocol):
    """What a ``Line`` tells its client (client.aio.AsyncRoomClient)."""

    reply_wait: float
    reply_types: frozenset[str]
    """The messages that answer a command of this connection's (kept for ``reply``)."""

    def server_of(self, ws: ClientConnection, url: str) -> str: ...

    def observe(self, message: Message) -> None: ...

    def noted(self, way: str, line: Line, message: Message) -> None: ...

    def line_closed(self, line: Line) -> None: ...


class Line:
    """One WebSocket of an ``AsyncRoomClient`` and its reader, which keeps the replies
    (``welcome``, ``move_ok``, ``error``...) for ``reply`` and hands everything to the
    client's ``observe``."""

    def __init__(self, ws: ClientConnection, url: str, client: LineOwner) -> None:
        self.ws, self.url, self.client = ws, url, client
        self.server: str = client.server_of(ws, url)
        self.opened = time.monotonic()
        """When its handshake completed."""
        self.replies: list[Message] = []
        self.closed = asyncio.Event()
        self.arrived = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                message = json.loads(text)
                if isinstance(message, dict):
                    self.client.noted("<", self, message)
                    self.client.observe(message)
                    if message.get("type") in self.client.reply_types:
                        self.replies.append(message)
                self.arrived.set()
        except (ConnectionClosed, OSError):
            pass
        finally:
            self.client.noted("x", self, {"type": "closed", "code": self.ws.close_code})
            self.client.line_closed(self)
            self.closed.set()
            self.arrived.set()

    async def send(self, message: Message) -> bool:
        """Send ``message``; False when the connection is gone."""
        self.client.noted(">", self, message)
        try:
            await self.ws.send(json.dumps(message))
        except (ConnectionClosed, OSError):
            return False
        return True

    async def reply(self, match: Callable[[Message], bool]) -> Message | None:
        """The first reply that ``match``es; ``None`` when the line closed or stayed silent
        for the client's ``reply_wait`` (then it is aborted, so the keeper rejoins)."""
        deadline = time.monotonic() + self.client.reply_wait
        while True:
            for index, message in enumerate(self.replies):
                if match(message):
                    return self.replies.pop(index)
            if self.closed.is_set():
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.abort()
                return None
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), remaining)

    def abort(self) -> None:
        self.ws.transport.abort()

    async def close(self) -> None:
        with contextlib.suppress(ConnectionClosed, OSError, TimeoutError):
            await asyncio.wait_for(self.ws.close(), 2)
        self.abort()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader
