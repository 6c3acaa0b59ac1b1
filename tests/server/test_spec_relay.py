"""tests/support/spec_relay.py, the checking relay the bridge's tests connect through: it
passes HTTP and WebSocket traffic to the server unchanged, and it tells a frame the spec does
not allow, in either direction, from those it does, fragmented ones too."""

from __future__ import annotations

import json

import httpx
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

from tests.support.live_server import LiveServer
from tests.support.spec_relay import SpecRelay


async def test_it_passes_a_real_servers_traffic_and_tells_a_frame_out_of_the_spec(
    server: LiveServer,
) -> None:
    async with SpecRelay(server.port) as relay:
        async with httpx.AsyncClient(base_url=relay.url) as http:  # HTTP passes unread
            made = await http.post("/api/rooms", json={"rules": {}})
        assert made.status_code == 201, made.text
        room = made.json()["room_id"]
        async with connect(f"ws://127.0.0.1:{relay.port}/ws/{room}", proxy=None) as ws:
            await ws.send(json.dumps({"type": "join", "as": "player", "name": "Ada"}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.send(json.dumps({"type": "dance", "id": "u1"}))
            while (answer := json.loads(await ws.recv()))["type"] != "error":
                pass  # the events of the join come first
            assert answer["code"] == "unknown_type"
    assert relay.saw() == {("room", "send"), ("room", "receive")}
    assert [(bad.channel, bad.direction) for bad in relay.invalid] == [("room", "send")]
    assert '"dance"' in relay.invalid[0].text and relay.invalid[0].reason


async def echo(ws: ServerConnection) -> None:
    async for message in ws:
        await ws.send(message)


async def test_it_tells_what_a_server_sends_out_of_the_spec_even_in_fragments() -> None:
    """An echo server answers a room socket's ``ping`` with a ``ping``, which only a client
    sends; a fragmented message is read whole."""
    ping = json.dumps({"type": "ping", "id": "p1"})
    async with (
        serve(echo, "127.0.0.1", 0) as echoing,
        SpecRelay(echoing.sockets[0].getsockname()[1]) as relay,
        connect(f"ws://127.0.0.1:{relay.port}/ws/some-room", proxy=None) as ws,
    ):
        await ws.send([ping[:7], ping[7:]])
        assert await ws.recv() == ping
    assert relay.counts == {("room", "send"): 1, ("room", "receive"): 1}
    assert [(bad.channel, bad.direction, bad.text) for bad in relay.invalid] == [
        ("room", "receive", ping)
    ]
