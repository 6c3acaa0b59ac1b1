"""A WebSocket relay in front of a live server that loses one answer, the way a network does.

Every connection is relayed whole to the server, but the first client message that ``lose``
matches: it reaches the server, and the connection is cut as soon as the server's answer to
it comes back (the message landed; its answer never arrives). ``seen`` holds every message
the clients sent, in order.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

from tests.support.live_server import LiveServer

__all__ = ["LosingRelay", "losing_relay"]

Message = dict[str, Any]


def _answers(answer: Message, message: Message) -> bool:
    """``answer`` is the server's answer to ``message`` (a join's, a move's, a command's)."""
    if message.get("type") == "join":
        return answer.get("type") in ("welcome", "error")
    if answer.get("type") == "move_ok":
        return answer.get("move_id") == message.get("move_id")
    ref = message.get("move_id", message.get("id"))
    return answer.get("type") != "moved" and ref is not None and answer.get("ref") == ref


class LosingRelay:
    def __init__(self, server: LiveServer, lose: Callable[[Message], bool]) -> None:
        self.server = server
        self.lose = lose
        self.seen: list[Message] = []
        self.lost: Message | None = None
        self.connections = 0
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def handle(self, client: ServerConnection) -> None:
        self.connections += 1
        path = client.request.path if client.request is not None else "/"
        async with connect(f"ws://127.0.0.1:{self.server.port}{path}", proxy=None) as upstream:
            cut = asyncio.Event()
            losing: list[Message] = []  # the message whose answer is to be lost, if sent here

            async def up() -> None:
                async for text in client:
                    message = json.loads(text)
                    self.seen.append(message)
                    if self.lost is None and self.lose(message):
                        self.lost = message
                        losing.append(message)
                    await upstream.send(text)

            async def down() -> None:
                async for text in upstream:
                    if losing and _answers(json.loads(text), losing[0]):
                        cut.set()  # the answer exists now: lose it, and the line with it
                        return
                    await client.send(text)

            tasks = [asyncio.create_task(up()), asyncio.create_task(down())]
            try:
                await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in tasks:
                    task.cancel()
                if cut.is_set():
                    client.transport.abort()  # no close frame: a network that drops


@asynccontextmanager
async def losing_relay(
    server: LiveServer, lose: Callable[[Message], bool]
) -> AsyncIterator[LosingRelay]:
    relay = LosingRelay(server, lose)
    async with serve(relay.handle, "127.0.0.1", 0) as running:
        relay.port = running.sockets[0].getsockname()[1]
        yield relay
