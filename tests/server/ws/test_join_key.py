"""A seat-taking join whose answer is lost: the client dropped its socket right after sending
``join``. Joining again with the same ``join_key`` gets the same seat and a working token;
anyone with another key (or none) still gets ``room_full``; a token resume spends the key."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import connect as ws_connect

from tests.support.live_server import LiveServer
from tests.support.waiting import eventually


async def join_and_drop(server: LiveServer, room_id: str, join_key: str) -> None:
    """Send a player ``join`` with ``join_key`` and close at once, reading nothing."""
    async with ws_connect(server.ws_url(room_id), proxy=None) as ws:
        await ws.send(json.dumps({"type": "join", "as": "player", "join_key": join_key}))


async def players(server: LiveServer, room_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = (await server.snapshot(room_id))["players"]
    return found


async def test_a_join_dropped_unanswered_is_taken_again_with_its_key(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    mine = secrets.token_urlsafe(16)
    await join_and_drop(server, room_id, mine)
    await eventually(lambda: _seat_taken_and_away(server, room_id), "the dropped join's seat, away")
    o = await connect(server, room_id)
    assert (await o.join(name="Grace", join_key=secrets.token_urlsafe(16)))["mark"] == "O"

    x = await connect(server, room_id)
    welcome = await x.join(join_key=mine, last_version=0)
    assert (welcome["type"], welcome["role"], welcome["mark"]) == ("welcome", "player", "X")
    token = welcome["token"]
    assert isinstance(token, str) and len(token) >= 43
    assert welcome["state"]["status"] == "playing"
    back = await o.until("presence", mark="X", connected=True)
    assert back["version"] == welcome["version"]
    assert (await x.move(1, 1))["type"] == "move_ok"

    thief = await connect(server, room_id)
    refused = await thief.join(join_key=secrets.token_urlsafe(16))
    assert (refused["type"], refused["code"]) == ("error", "room_full")
    assert (await thief.join())["code"] == "room_full"
    assert [p["mark"] for p in await players(server, room_id)] == ["X", "O"]

    # the token resumes the seat on a new connection; then the key is spent
    await x.close()
    again = await connect(server, room_id)
    resumed = await again.join(token=token)
    assert (resumed["mark"], resumed["token"]) == ("X", None)
    assert (await o.move(0, 0))["type"] == "move_ok"
    await again.until("moved", mark="O")
    assert (await again.move(2, 2))["type"] == "move_ok"
    late = await connect(server, room_id)
    spent = await late.join(join_key=mine)
    assert (spent["type"], spent["code"]) == ("error", "room_full")


async def test_a_retry_while_the_first_connection_is_still_open_joins_the_seat(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    mine = secrets.token_urlsafe(16)
    half_open = await connect(server, room_id)
    first = await half_open.join(join_key=mine)
    retry = await connect(server, room_id)
    second = await retry.join(join_key=mine)
    assert second["mark"] == first["mark"] == "X"
    assert second["token"] not in (None, first["token"])
    stale = await connect(server, room_id)
    assert (await stale.join(token=first["token"]))["code"] == "bad_token"
    fresh = await connect(server, room_id)
    assert (await fresh.join(token=second["token"]))["mark"] == "X"
    assert [p["mark"] for p in await players(server, room_id)] == ["X"]


async def test_a_spectator_or_a_malformed_key_is_a_bad_message(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    client = await connect(server, room_id)
    for fields in (
        {"join_key": "short"},
        {"join_key": secrets.token_urlsafe(16), "token": "t" * 43},
    ):
        error = await client.join(**fields)
        assert (error["type"], error["code"]) == ("error", "bad_message")
    error = await client.join("spectator", join_key=secrets.token_urlsafe(16))
    assert (error["type"], error["code"]) == ("error", "bad_message")
    assert await players(server, room_id) == []


async def _seat_taken_and_away(server: LiveServer, room_id: str) -> bool:
    seats = await players(server, room_id)
    return len(seats) == 1 and seats[0]["mark"] == "X" and not seats[0]["connected"]
