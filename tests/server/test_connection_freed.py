"""A closed WebSocket connection is freed by reference counting alone: its uvicorn
protocol, transport and buffers (about 60 objects) do not wait in a reference cycle for
the collector's next full collection, which a worker with a new room per game would
otherwise fill with every connection it served (docs/performance.md, item 28)."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from server import Settings
from tests.server.wsclient import WAIT, Client, LiveServer


class _Spy:
    """The outermost ASGI app: a weak reference to each WebSocket's uvicorn protocol (the
    owner of its ASGI ``send``)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.protocols: list[weakref.ref[Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            self.protocols.append(weakref.ref(send.__self__))
        await self.app(scope, receive, send)


@pytest.fixture
def live() -> Iterator[tuple[LiveServer, _Spy]]:
    server = LiveServer(Settings())
    spy = _Spy(server.app)
    server.server.config.app = spy
    server.start()
    gc.collect()
    gc.disable()
    try:
        yield server, spy
    finally:
        gc.enable()
        server.stop()


async def _freed(reference: weakref.ref[Any]) -> bool:
    deadline = time.monotonic() + WAIT
    while reference() is not None and time.monotonic() < deadline:
        await asyncio.sleep(0.02)  # the server tears the connection down on its own loop
    return reference() is None


async def test_players_and_a_spectator_leave_nothing_for_the_collector(
    live: tuple[LiveServer, _Spy],
) -> None:
    server, spy = live
    room_id = await server.create_room()
    x, o, watcher = [await Client.open(server, room_id) for _ in range(3)]
    assert (await x.join(name="Ada"))["type"] == "welcome"
    assert (await o.join(name="Bo"))["type"] == "welcome"
    assert (await watcher.join("spectator", name="Cy"))["type"] == "welcome"
    assert (await x.move(1, 1))["type"] == "move_ok"
    await watcher.until("moved")
    assert len(spy.protocols) == 3 and all(ref() is not None for ref in spy.protocols)
    for client in (x, o, watcher):
        await client.close()
    for reference in spy.protocols:
        assert await _freed(reference), "a closed connection is held by a reference cycle"
