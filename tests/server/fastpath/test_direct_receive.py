"""A joined connection's messages are taken from uvicorn's ``data_received``, past the ASGI
queue, one at a time and in order (server.fastpath.direct_receive); a connection's first
message (its ``join``) and whatever comes while one is under way take the queue."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.frames import Frame, Opcode

from server import Settings
from server.fastpath.uvicorn_protocols import ReleasingWebSockets
from tests.support.live_server import LiveServer
from tests.support.ws_client import Client

_QUEUED: list[str] = []


class _Counted(ReleasingWebSockets):
    """The server's WebSocket protocol, recording each text message the app took from
    its queue."""

    async def receive(self) -> Any:
        message = await super().receive()
        text = message.get("text") if message["type"] == "websocket.receive" else None
        if isinstance(text, str):
            _QUEUED.append(json.loads(text)["type"])
        return message


@pytest.fixture
def live() -> Iterator[LiveServer]:
    server = LiveServer(Settings(rate=1000.0, burst=1000))
    assert server.server.config.ws is ReleasingWebSockets  # uvicorn_options' choice
    server.server.config.ws = _Counted
    _QUEUED.clear()
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def test_moves_skip_the_queue_and_a_burst_keeps_its_order(live: LiveServer) -> None:
    room_id = await live.create_room()
    x, o = [await Client.open(live, room_id) for _ in range(2)]
    assert (await x.join(name="Ada"))["type"] == "welcome"
    assert (await o.join(name="Bo"))["type"] == "welcome"
    await x.seen(o.version)
    assert _QUEUED == ["join", "join"]
    for mover, (row, col) in zip((x, o, x, o), ((0, 0), (1, 1), (0, 1), (2, 2)), strict=True):
        answer = await mover.move(row, col)
        assert answer["type"] == "move_ok", answer
        await x.seen(answer["version"])
        await o.seen(answer["version"])
    assert _QUEUED == ["join", "join"]  # every move was taken directly

    # Five messages in one write: the first is taken directly, those behind it wait for it
    # (the queue); each is answered, in the order sent.
    texts = [json.dumps({"type": "ping", "id": f"p{i}"}) for i in range(5)]
    frames = [Frame(Opcode.TEXT, text.encode()).serialize(mask=True) for text in texts]
    x.ws.transport.write(b"".join(frames))
    pongs = [await x.until("pong", ref=f"p{i}") for i in range(5)]
    assert [x.log.index(pong) for pong in pongs] == sorted(x.log.index(pong) for pong in pongs)
    move = await x.move(2, 0)  # and the connection goes on taking messages
    assert move["type"] == "move_ok", move
    assert _QUEUED.count("move") == 0
    for client in (x, o):
        await client.close()
