"""``play --connect``'s network client takes its seat with a join key: when the answer to its
first join is lost (a relay in front of the real server swallows the welcome and closes the
line), it joins again with the same key and gets the same seat, not another one."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

from cli.terminal.net_client import RoomClient, RoomLink
from tests.support.live_server import LiveServer
from tests.support.lost_answers import lose_next_join_answer


class LosingRelay:
    """A WebSocket relay to ``server`` that lets the first connection's first message through
    and closes that connection as soon as the server answers, the answer undelivered; later
    connections are relayed whole."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.joins: list[dict[str, Any]] = []
        self.connections = 0
        self.port = 0

    async def handle(self, client: ServerConnection) -> None:
        self.connections += 1
        first = self.connections == 1
        path = client.request.path if client.request is not None else "/"
        async with connect(f"ws://127.0.0.1:{self.server.port}{path}", proxy=None) as upstream:
            if first:
                text = await client.recv()
                self.joins.append(json.loads(text))
                await upstream.send(text)
                await upstream.recv()  # the welcome exists now: lose it
                return

            async def pump(source: Any, sink: Any, record: bool) -> None:
                async for message in source:
                    if record and json.loads(message)["type"] == "join":
                        self.joins.append(json.loads(message))
                    await sink.send(message)

            tasks = [
                asyncio.create_task(pump(client, upstream, True)),
                asyncio.create_task(pump(upstream, client, False)),
            ]
            try:
                await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in tasks:
                    task.cancel()


@pytest.fixture
async def relay(server: LiveServer) -> AsyncIterator[LosingRelay]:
    losing = LosingRelay(server)
    async with serve(losing.handle, "127.0.0.1", 0) as running:
        losing.port = running.sockets[0].getsockname()[1]
        yield losing


async def test_a_lost_first_welcome_is_recovered_with_the_same_key(
    server: LiveServer, relay: LosingRelay
) -> None:
    room_id = await server.create_room()
    notes: list[str] = []
    link = RoomLink.parse(f"http://127.0.0.1:{relay.port}/r/{room_id}")
    client = RoomClient(link, role="player", name="Kay", notify=notes.append)
    try:
        welcome = await asyncio.to_thread(client.connect)
    finally:  # in a thread: the relay runs on this loop, and the close handshake needs it
        await asyncio.to_thread(client.close)
    assert (welcome["mark"], welcome["role"]) == ("X", "player") and welcome["token"]
    assert len(relay.joins) == 2 and relay.connections == 2
    keys = [join.get("join_key") for join in relay.joins]
    assert keys[0] is not None and keys[0] == keys[1] and len(keys[0]) >= 22
    assert all("token" not in join for join in relay.joins)
    assert any("did not answer" in note for note in notes)
    players = (await server.snapshot(room_id))["players"]
    assert [p["mark"] for p in players] == ["X"], "the retry took a second seat"
    assert client._join_key is None, "the key is kept only until a token is held"


async def test_a_join_that_may_have_landed_is_sent_again(
    make_server: Callable[..., LiveServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = make_server()
    failed = lose_next_join_answer(server, monkeypatch)
    room_id = await server.create_room()
    notes: list[str] = []
    link = RoomLink.parse(f"{server.url}/r/{room_id}")
    client = RoomClient(link, role="player", name="Kay", notify=notes.append)
    try:
        welcome = await asyncio.to_thread(client.connect)
    finally:
        await asyncio.to_thread(client.close)
    assert len(failed) == 1
    assert welcome["mark"] == "X" and welcome["token"]
    assert any("trying again" in note for note in notes)
    players = (await server.snapshot(room_id))["players"]
    assert [p["mark"] for p in players] == ["X"]
