"""A worker killed between taking a seat and sending its token: two ``tictactoe serve`` on one
private Redis, the first set to end itself (as ``kill -9`` would) right after committing a
seat-taking ``join`` or quick play and before answering (server.crash_points). The client
repeats the request with the same join key on the other server: the same seat, a token that
plays; anyone with another key still gets ``room_full`` (or another seat)."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.crash_points import AFTER_SEAT, CRASH_ENV, CRASH_STATUS
from tests.support.redis_server import RedisServer
from tests.support.server_process import Fleet, ServerProcess

pytestmark = pytest.mark.redis

WAIT = 30.0  # a bound against hangs, never a measurement


def two_servers(fleet: Fleet, redis: RedisServer) -> tuple[ServerProcess, ServerProcess]:
    """(one that dies after its first seat, one that does not), on one Redis, both ready."""
    dying = fleet.launch(store_url=redis.url, env={CRASH_ENV: AFTER_SEAT})
    other = fleet.launch(store_url=redis.url)
    dying.wait_ready()
    other.wait_ready()
    return dying, other


async def reply(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message``; the first answer that is not a room event (welcome, error, ...)."""
    await ws.send(json.dumps(message))
    async with asyncio.timeout(WAIT):
        while True:
            answer: dict[str, Any] = json.loads(await ws.recv())
            if answer["type"] in {"welcome", "error", "move_ok", "ack"}:
                return answer


def join(join_key: str | None = None, token: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "join", "as": "player"}
    if join_key is not None:
        message["join_key"] = join_key
    if token is not None:
        message["token"] = token
    return message


def died_as_told(server: ServerProcess) -> None:
    assert server.process.wait(timeout=WAIT) == CRASH_STATUS, server.log_tail()


async def test_a_join_whose_worker_died_before_the_welcome_gets_its_seat_again(
    fleet: Fleet, own_redis_server: RedisServer
) -> None:
    dying, other = two_servers(fleet, own_redis_server)
    async with httpx.AsyncClient() as http:
        created = await http.post(f"{other.url}/api/rooms", json={}, timeout=WAIT)
    room_id = created.json()["room_id"]
    mine = secrets.token_urlsafe(16)

    async with connect(dying.ws(room_id), proxy=None) as lost:
        await lost.send(json.dumps(join(mine)))
        with pytest.raises(ConnectionClosed):  # no welcome: the worker is gone
            async with asyncio.timeout(WAIT):
                await lost.recv()
    died_as_told(dying)
    async with httpx.AsyncClient() as http:
        snapshot = (await http.get(f"{other.url}/api/rooms/{room_id}", timeout=WAIT)).json()
    assert [p["mark"] for p in snapshot["players"]] == ["X"], "the seat was committed"

    async with (
        connect(other.ws(room_id), proxy=None) as x,
        connect(other.ws(room_id), proxy=None) as o,
        connect(other.ws(room_id), proxy=None) as thief,
    ):
        welcome = await reply(x, join(mine))
        assert (welcome["type"], welcome["mark"]) == ("welcome", "X")
        token = welcome["token"]
        assert isinstance(token, str)
        assert (await reply(o, join(secrets.token_urlsafe(16))))["mark"] == "O"
        refused = await reply(thief, join(secrets.token_urlsafe(16)))
        assert (refused["type"], refused["code"]) == ("error", "room_full")

    async with connect(other.ws(room_id), proxy=None) as resumed:
        back = await reply(resumed, join(token=token))
        assert (back["type"], back["mark"]) == ("welcome", "X")
        move = {"type": "move", "row": 1, "col": 1, "version": back["version"], "move_id": "m1"}
        assert (await reply(resumed, move))["type"] == "move_ok"


async def quickplay(server: ServerProcess, join_key: str) -> dict[str, Any]:
    body = {"rules": {"rows": 4, "cols": 7, "k": 3}, "join_key": join_key}
    async with httpx.AsyncClient() as http:
        response = await http.post(f"{server.url}/api/quickplay", json=body, timeout=WAIT)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def test_a_quick_play_whose_worker_died_before_answering_gets_its_seat_again(
    fleet: Fleet, own_redis_server: RedisServer
) -> None:
    dying, other = two_servers(fleet, own_redis_server)
    mine = secrets.token_urlsafe(16)
    with pytest.raises(httpx.HTTPError):  # no answer: the worker is gone
        await quickplay(dying, mine)
    died_as_told(dying)

    again = await quickplay(other, mine)
    room_id = again["room_id"]
    assert (again["mark"], again["matched"]) == ("X", False)
    repeat = await quickplay(other, mine)
    assert (repeat["room_id"], repeat["mark"]) == (room_id, "X")
    stranger = await quickplay(other, secrets.token_urlsafe(16))
    assert (stranger["room_id"], stranger["mark"], stranger["matched"]) == (room_id, "O", True)

    async with connect(other.ws(room_id), proxy=None) as x:
        welcome = await reply(x, join(token=repeat["token"]))
        assert (welcome["type"], welcome["mark"]) == ("welcome", "X")
        assert [p["mark"] for p in welcome["state"]["players"]] == ["X", "O"]


async def test_quick_play_repeated_on_two_servers_gets_one_seat(
    fleet: Fleet, own_redis_server: RedisServer
) -> None:
    first, second = fleet.start(own_redis_server.url, 2)
    mine, theirs = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    a = await quickplay(first, mine)
    b = await quickplay(second, mine)
    assert (b["room_id"], b["mark"]) == (a["room_id"], a["mark"])
    assert b["token"] != a["token"]
    c = await quickplay(second, theirs)
    assert c["room_id"] == a["room_id"] and c["mark"] != a["mark"]
    async with connect(first.ws(a["room_id"]), proxy=None) as stale:
        assert (await reply(stale, join(token=a["token"])))["code"] == "bad_token"
    async with connect(first.ws(a["room_id"]), proxy=None) as fresh:
        assert (await reply(fresh, join(token=b["token"])))["mark"] == a["mark"]
