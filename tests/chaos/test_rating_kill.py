"""A worker killed between applying a rated game's ratings and recording that it did: a
``tictactoe serve`` on a private Redis, set to end itself (as ``kill -9`` would) right after
its rater applied the game (server.crash_points). Another server, started afterwards, sees the
room still pending when the players come back: it applies the game again, which changes no
rating (the marker answers), and records it with the change the first one made."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.crash_points import AFTER_RATING, CRASH_ENV, CRASH_STATUS
from tests.support.redis_server import RedisServer
from tests.support.server_process import Fleet, ServerProcess

pytestmark = pytest.mark.redis

WAIT = 30.0  # a bound against hangs, never a measurement
POOL = "classic.untimed"


async def until(ws: ClientConnection, *types: str) -> dict[str, Any]:
    """The next message of one of ``types``."""
    async with asyncio.timeout(WAIT):
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            if message["type"] in types:
                return message


async def send(ws: ClientConnection, message: dict[str, Any], *answers: str) -> dict[str, Any]:
    await ws.send(json.dumps(message))
    return await until(ws, *answers)


async def identity(server: ServerProcess, name: str) -> dict[str, str]:
    async with httpx.AsyncClient() as http:
        made = (await http.post(f"{server.url}/api/players", json={"name": name})).json()
    return {"id": made["player_id"], "secret": made["secret"]}


async def test_a_worker_killed_after_applying_ratings_leaves_them_changed_once(
    fleet: Fleet, own_redis_server: RedisServer
) -> None:
    dying = fleet.launch(store_url=own_redis_server.url, env={CRASH_ENV: AFTER_RATING})
    dying.wait_ready()
    ada, bob = await identity(dying, "Ada"), await identity(dying, "Bob")
    async with httpx.AsyncClient() as http:
        created = await http.post(f"{dying.url}/api/rooms", json={"rated": True}, timeout=WAIT)
    room_id = created.json()["room_id"]
    tokens = []
    async with (
        connect(dying.ws(room_id), proxy=None) as x,
        connect(dying.ws(room_id), proxy=None) as o,
    ):
        for ws, player in ((x, ada), (o, bob)):
            join = {"type": "join", "as": "player", "player": player}
            welcome = await send(ws, join, "welcome")
            tokens.append(welcome["token"])
        moves = [(x, 0, 0), (o, 1, 0), (x, 0, 1), (o, 1, 1), (x, 0, 2)]
        for ws, row, col in moves:
            async with httpx.AsyncClient() as http:
                state = (await http.get(f"{dying.url}/api/rooms/{room_id}", timeout=WAIT)).json()
            move = {
                "type": "move",
                "row": row,
                "col": col,
                "version": state["version"],
                "move_id": f"m{row}{col}",
            }
            assert (await send(ws, move, "move_ok", "error"))["type"] == "move_ok"
        with pytest.raises(ConnectionClosed):  # the worker ends itself after applying
            await until(x, "rated")
    assert dying.process.wait(timeout=WAIT) == CRASH_STATUS, dying.log_tail()

    other = fleet.launch(store_url=own_redis_server.url)
    other.wait_ready()
    async with connect(other.ws(room_id), proxy=None) as x:  # Ada comes back
        welcome = await send(x, {"type": "join", "as": "player", "token": tokens[0]}, "welcome")
        state = welcome["state"]
        rated = (
            state["rating_change"]
            if state["rating_change"] is not None
            else await until(x, "rated")
        )
    change = rated["rating_change"]
    assert change["X"]["player_id"] == ada["id"] and change["X"]["before"] == 1500.0
    async with httpx.AsyncClient() as http:
        page = (await http.get(f"{other.url}/api/players/{ada['id']}", timeout=WAIT)).json()
        final = (await http.get(f"{other.url}/api/rooms/{room_id}", timeout=WAIT)).json()
    assert page["ratings"][POOL]["games"] == 1, "applied twice"
    assert page["ratings"][POOL]["rating"] == change["X"]["after"]
    assert len(page["ratings"][POOL]["history"]) == 1
    assert final["rating_change"]["rating_change"] == change and final["due"] is None
