"""A closed WebSocket connection is freed by reference counting alone: its uvicorn
protocols (the HTTP one that took the upgrade, the WebSocket one), websockets'
``ServerProtocol``, transport and buffers (about 70 objects) do not wait in a reference
cycle for the collector's next full collection, which a worker with a new room per game
would otherwise fill with every connection it served (server.fastpath.uvicorn_protocols)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from server import Settings
from server.fastpath.uvicorn_protocols import UpgradeReleasingHttpTools
from tests.support.live_server import LiveServer
from tests.support.waiting import eventually
from tests.support.ws_client import WAIT, Client

_HTTP_PROTOCOLS: list[weakref.ref[Any]] = []


class _RecordedHttp(UpgradeReleasingHttpTools):
    """The server's HTTP protocol, each instance known by a weak reference."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _HTTP_PROTOCOLS.append(weakref.ref(self))


class _Spy:
    """The outermost ASGI app: a weak reference to each WebSocket's uvicorn protocol (the
    owner of its ASGI ``send``)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.protocols: list[weakref.ref[Any]] = []
        self.parsers: list[weakref.ref[Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            self.protocols.append(weakref.ref(send.__self__))
            self.parsers.append(weakref.ref(send.__self__.conn))  # websockets' ServerProtocol
        await self.app(scope, receive, send)


@pytest.fixture
def live() -> Iterator[tuple[LiveServer, _Spy]]:
    server = LiveServer(Settings())
    spy = _Spy(server.app)
    server.server.config.app = spy
    assert server.server.config.http is UpgradeReleasingHttpTools  # uvicorn_options' choice
    server.server.config.http = _RecordedHttp
    _HTTP_PROTOCOLS.clear()
    server.start()
    gc.collect()
    gc.disable()
    try:
        yield server, spy
    finally:
        gc.enable()
        server.stop()


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
    assert len(_HTTP_PROTOCOLS) >= 3  # the upgrades (and the room's POST)
    for kind, references in [
        ("uvicorn's WebSocket protocol", spy.protocols),
        ("websockets' ServerProtocol", spy.parsers),
        ("uvicorn's HTTP protocol", _HTTP_PROTOCOLS),
    ]:
        for reference in references:  # the server tears it down on its own loop
            await eventually(
                lambda reference=reference: reference() is None,
                f"{kind} freed (not held by a reference cycle)",
                timeout=WAIT,
            )
