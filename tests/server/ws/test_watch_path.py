"""The spectators' path ``/ws/{room_id}/watch``: the same protocol for spectators, a player's
join refused there (``not_a_player``, nothing written, the socket open), the same Origin
check, and the room's own path still taking spectators (older clients)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from tests.support.live_server import LiveServer


async def test_a_spectator_on_the_watch_path_sees_the_game(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    x, o = await connect(server, room_id), await connect(server, room_id)
    await x.join()
    await o.join()
    watcher = await connect(server, room_id, watch=True)
    welcome = await watcher.join("spectator", name="Eve")
    assert (welcome["type"], welcome["role"], welcome["token"]) == ("welcome", "spectator", None)
    await x.seen(welcome["version"])
    ok = await x.move(1, 1)
    moved = await watcher.until("moved", version=ok["version"])
    assert (moved["mark"], moved["row"], moved["col"]) == ("X", 1, 1)
    assert (await watcher.move(0, 0))["code"] == "not_a_player"


async def test_a_player_join_on_the_watch_path_is_refused_and_changes_nothing(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    x = await connect(server, room_id)
    token = (await x.join())["token"]
    before = await server.stored(room_id)
    client = await connect(server, room_id, watch=True)
    error = await client.join()  # a new seat
    assert (error["type"], error["code"]) == ("error", "not_a_player")
    assert f"/ws/{room_id}/watch" in error["message"]
    error = await client.join(token=token)  # a resume
    assert (error["type"], error["code"]) == ("error", "not_a_player")
    assert await server.stored(room_id) == before
    welcome = await client.join("spectator")  # the socket stayed open: it may watch
    assert welcome["type"] == "welcome" and welcome["role"] == "spectator"
    assert welcome["state"]["players"][0]["mark"] == "X"


async def test_the_room_path_still_takes_spectators(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    client = await connect(server, room_id)
    welcome = await client.join("spectator")
    assert (welcome["type"], welcome["role"]) == ("welcome", "spectator")


async def test_the_watch_path_checks_the_origin_and_the_room(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    with pytest.raises(InvalidStatus) as info:
        await ws_connect(
            server.ws_url(room_id, watch=True), origin=Origin("http://evil.example"), proxy=None
        )
    assert info.value.response.status_code == 403
    missing = await connect(server, "nosuchroom", watch=True)
    error = await missing.join("spectator")
    assert (error["type"], error["code"]) == ("error", "room_not_found")
    assert await missing.wait_closed() == 4004
