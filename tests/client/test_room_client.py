"""The blocking ``RoomClient`` against a real server on a real port: it resumes its seat after
the connection is killed, and a move whose answer was lost is sent again and lands once."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any

import pytest

from client import Disconnected, Refused, RoomClient, RoomLink
from core import MoveRequest
from tests.support.live_server import LiveServer
from tests.support.losing_relay import losing_relay
from tests.support.ws_client import WAIT


async def test_it_resumes_its_seat_after_the_connection_is_killed(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    link = RoomLink.parse(f"{server.url}/r/{room_id}")
    notes: list[str] = []
    client = RoomClient(link, role="player", name="Sync", notify=notes.append)
    await asyncio.to_thread(client.connect)
    o = await connect(server, room_id)
    await o.join()
    await asyncio.to_thread(client.wait, lambda: client.status == "playing", WAIT)
    first = await asyncio.to_thread(client.play, MoveRequest(col=0, row=0))
    assert first["type"] == "move_ok"
    await o.seen(first["version"])
    assert (await o.move(1, 1))["type"] == "move_ok"
    await asyncio.to_thread(client.wait, lambda: len(client.moves) == 2, WAIT)

    assert client._ws is not None
    client._ws.socket.shutdown(socket.SHUT_RDWR)  # the network drops, mid-game
    landed = await asyncio.to_thread(client.play, MoveRequest(col=2, row=2))
    assert landed["type"] == "move_ok" and client.reconnects == 1
    assert "Reconnected." in notes and client.mark == "X"
    snapshot = await server.snapshot(room_id)
    assert [(m["mark"], m["row"], m["col"]) for m in snapshot["moves"]] == [
        ("X", 0, 0),
        ("O", 1, 1),
        ("X", 2, 2),
    ]
    assert snapshot["players"][0]["name"] == "Sync" and snapshot["players"][0]["connected"]
    await o.until("presence", mark="X", connected=False)
    await o.until("presence", mark="X", connected=True)
    await asyncio.to_thread(client.wait, lambda: client.version >= landed["version"], WAIT)
    with pytest.raises(Refused) as refused:
        await asyncio.to_thread(client.play, MoveRequest(col=2, row=2))
    assert refused.value.code == "not_your_turn"
    client.close()
    with pytest.raises(Disconnected):
        RoomClient(RoomLink("http://127.0.0.1:1", "abcd"), role="player").connect()


async def test_a_move_whose_answer_was_lost_is_sent_again_and_lands_once(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    async with losing_relay(server, lambda message: message["type"] == "move") as relay:
        notes: list[str] = []
        client = RoomClient(RoomLink(relay.url, room_id), role="player", notify=notes.append)
        try:
            await asyncio.to_thread(client.connect)
            o = await connect(server, room_id)
            await o.join()
            await asyncio.to_thread(client.wait, lambda: client.status == "playing", WAIT)
            landed = await asyncio.to_thread(client.play, MoveRequest(col=1, row=1))
        finally:  # in a thread: the relay runs on this loop, and the close handshake needs it
            await asyncio.to_thread(client.close)
    sent = [m for m in relay.seen if m["type"] == "move"]
    assert len(sent) == 2 and sent[0] == sent[1], "the same move, move_id and version again"
    assert landed["type"] == "move_ok" and landed["duplicate"] is True
    assert client.reconnects == 1 and "Reconnected." in notes
    snapshot = await server.snapshot(room_id)
    assert [(m["mark"], m["row"], m["col"]) for m in snapshot["moves"]] == [("X", 1, 1)]


def test_room_links() -> None:
    assert RoomLink.parse("http://h:8000/r/abc") == RoomLink("http://h:8000", "abc")
    assert RoomLink.parse("https://h/r/abc/watch") == RoomLink("https://h", "abc", True)
    assert RoomLink.parse("ws://h:1/ws/abc").ws_url == "ws://h:1/ws/abc"
    assert RoomLink.parse("ws://h:1/ws/abc/watch") == RoomLink("http://h:1", "abc", True)
    assert RoomLink.parse("https://h/r/abc").watch_ws_url == "wss://h/ws/abc/watch"
    spectator = RoomClient(RoomLink("http://h:1", "abc"), role="spectator")
    assert spectator.socket_url == "ws://h:1/ws/abc/watch"  # a balancer may spread these
    assert RoomClient(RoomLink("http://h:1", "abc"), role="player").socket_url == "ws://h:1/ws/abc"
    assert RoomLink.parse("https://h/r/abc").ws_url == "wss://h/ws/abc"
    assert RoomLink.parse("http://h:8000/") == RoomLink("http://h:8000", None)
    with pytest.raises(ValueError):
        RoomLink.parse("h:8000/r/abc")
