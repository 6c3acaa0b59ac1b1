"""The client library's RoomClient (``play --connect``'s) takes its seat with a join key: when
the answer to its first join is lost (a relay in front of the real server swallows the welcome
and cuts the line), it joins again with the same key and gets the same seat, not another
one."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from client import RoomClient, RoomLink
from tests.support.live_server import LiveServer
from tests.support.losing_relay import losing_relay
from tests.support.lost_answers import lose_next_join_answer


async def test_a_lost_first_welcome_is_recovered_with_the_same_key(server: LiveServer) -> None:
    room_id = await server.create_room()
    notes: list[str] = []
    async with losing_relay(server, lambda message: message["type"] == "join") as relay:
        link = RoomLink.parse(f"{relay.url}/r/{room_id}")
        client = RoomClient(link, role="player", name="Kay", notify=notes.append)
        try:
            welcome = await asyncio.to_thread(client.connect)
        finally:  # in a thread: the relay runs on this loop, and the close handshake needs it
            await asyncio.to_thread(client.close)
    assert (welcome["mark"], welcome["role"]) == ("X", "player") and welcome["token"]
    joins = [message for message in relay.seen if message["type"] == "join"]
    assert len(joins) == 2 and relay.connections == 2
    keys = [join.get("join_key") for join in joins]
    assert keys[0] is not None and keys[0] == keys[1] and len(keys[0]) >= 22
    assert all("token" not in join for join in joins)
    assert any("did not answer" in note for note in notes)
    players = (await server.snapshot(room_id))["players"]
    assert [p["mark"] for p in players] == ["X"], "the retry took a second seat"
    assert client.seat.join_key is None, "the key is kept only until a token is held"


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
