"""Correspondence games under real faults: real ``tictactoe serve`` processes on a real
redis-server with its AOF on, real WebSocket clients holding guest identities.

* A game of a day a move outlives every server and Redis itself: both servers killed -9,
  Redis killed and restarted from its AOF, new servers started; the players resume their
  seats with their tokens on other servers, each one's list of games still says whose move
  it is, and the game is played to its end with nothing lost or doubled.
* A missed deadline ends the game once: the players gone, two servers scanning the store's
  deadlines, one killed -9 at the deadline; the game ends on time exactly once, and later
  scans (a fresh server's too) change nothing.

A "day" is a few seconds here (``TICTACTOE_CORRESPONDENCE_DAY``, a test knob). Each test takes
some 20 s, nearly all of it starting servers (four and three): they are issue 43's done-when
checks, so they stay in the default tier."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from rooms.backends.redis.store import RedisStore
from tests.support.redis_server import RedisServer
from tests.support.server_process import Fleet, ServerProcess
from tests.support.waiting import eventually

pytestmark = [pytest.mark.redis, pytest.mark.slow]  # a chaos suite: the slow tier

WAIT = 30.0  # a bound against hangs, never a measurement


class Seat:
    """One player's socket: the messages it got, and its seat's token once welcomed."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.token: str | None = None
        self.version = 0

    async def next(self, kind: str) -> dict[str, Any]:
        async with asyncio.timeout(WAIT):
            while True:
                message: dict[str, Any] = json.loads(await self.ws.recv())
                self.version = max(self.version, message.get("version") or 0)
                if message["type"] == kind:
                    return message

    async def join(self, **fields: Any) -> dict[str, Any]:
        await self.ws.send(json.dumps({"type": "join", "as": "player", **fields}))
        welcome = await self.next("welcome")
        self.token = welcome["token"] or self.token
        return welcome

    async def move(self, row: int, col: int, version: int) -> None:
        move_id = f"m{row}{col}"
        message = {"type": "move", "row": row, "col": col, "version": version, "move_id": move_id}
        await self.ws.send(json.dumps(message))
        assert (await self.next("move_ok"))["version"] == version + 1


async def identity(server: ServerProcess, name: str) -> dict[str, str]:
    async with httpx.AsyncClient() as http:
        made = (await http.post(f"{server.url}/api/players", json={"name": name})).json()
    return {"id": made["player_id"], "secret": made["secret"]}


async def games_of(server: ServerProcess, player: dict[str, str]) -> list[dict[str, Any]]:
    async with httpx.AsyncClient() as http:
        got = await http.get(
            f"{server.url}/api/players/{player['id']}/games",
            headers={"Authorization": f"Bearer {player['secret']}"},
            timeout=15,
        )
    assert got.status_code == 200, got.text
    games: list[dict[str, Any]] = got.json()["games"]
    return games


async def correspondence_room(server: ServerProcess) -> str:
    async with httpx.AsyncClient() as http:
        made = await http.post(
            f"{server.url}/api/rooms", json={"time_control": {"days": 1}}, timeout=15
        )
    assert made.status_code == 201, made.text
    room_id: str = made.json()["room_id"]
    return room_id


async def logged_events(redis_url: str, room_id: str) -> list[dict[str, Any]]:
    store = RedisStore(redis_url)
    await store.open()
    try:
        texts = await store.events_since(room_id, 0)
        indexed = [r for r, _ in await store.due_rooms(time.time() + 1e9, 100_000)]
    finally:
        await store.close()
    assert texts is not None
    events = [json.loads(text) for text in texts]
    if any(e["type"] == "game_over" for e in events):
        assert room_id not in indexed  # the ending commit took it out of the deadlines
    return events


def restart(fleet: Fleet, redis: RedisServer, count: int, *flags: str) -> list[ServerProcess]:
    servers = [fleet.launch(*flags, store_url=redis.url) for _ in range(count)]
    for server in servers:
        server.wait_ready()
    return servers


async def test_a_game_outlives_every_server_and_redis_restarted_from_its_aof(
    aof_server: RedisServer, fleet: Fleet
) -> None:
    day = {"TICTACTOE_CORRESPONDENCE_DAY": "120"}  # long enough for all the restarts
    first = [fleet.launch(store_url=aof_server.url, env=day) for _ in range(2)]
    for server in first:
        server.wait_ready()
    ada, grace = await identity(first[0], "Ada"), await identity(first[1], "Grace")
    room_id = await correspondence_room(first[0])
    async with connect(first[0].ws(room_id)) as x_ws, connect(first[1].ws(room_id)) as o_ws:
        x, o = Seat(x_ws), Seat(o_ws)
        assert (await x.join(player=ada))["mark"] == "X"
        welcome = await o.join(player=grace)
        await x.move(1, 1, welcome["version"])
        await o.move(0, 0, x.version)
        tokens = (x.token, o.token)
    assert [g["your_turn"] for g in await games_of(first[1], ada)] == [True]

    for server in first:
        server.kill()  # kill -9: no worker stays up for the game
    await asyncio.to_thread(aof_server.restart)  # kill -9, then start from the AOF
    second = [fleet.launch(store_url=aof_server.url, env=day) for _ in range(2)]
    for server in second:
        server.wait_ready()

    ada_games = await games_of(second[0], ada)
    assert [(g["room_id"], g["your_turn"], g["moves"]) for g in ada_games] == [(room_id, True, 2)]
    assert [g["your_turn"] for g in await games_of(second[1], grace)] == [False]
    assert 0 < ada_games[0]["time_left"] <= 120
    async with connect(second[1].ws(room_id)) as x_ws, connect(second[0].ws(room_id)) as o_ws:
        x, o = Seat(x_ws), Seat(o_ws)  # each on the other server now, by token
        assert (await x.join(token=tokens[0]))["mark"] == "X"
        welcome = await o.join(token=tokens[1])
        assert welcome["state"]["board"] == "O../.X./..."
        version = welcome["version"]
        rest = ((0, 2), (2, 0), (1, 0), (1, 2), (0, 1), (2, 1), (2, 2))  # to a full board
        for ply, (row, col) in enumerate(rest):
            await (x if ply % 2 == 0 else o).move(row, col, version)
            version += 1
    events = await logged_events(aof_server.url, room_id)
    moved = [e for e in events if e["type"] == "moved"]
    assert [e["ply"] for e in moved] == list(range(1, 10))  # every move once, none lost
    assert moved[-1]["outcome"]["reason"] == "board_full" and moved[-1]["status"] == "finished"
    assert "game_over" not in [e["type"] for e in events]  # no deadline ended it meanwhile
    assert await games_of(second[0], ada) == []  # over: off the list


async def test_a_missed_deadline_ends_the_game_once_with_a_worker_killed_at_it(
    aof_server: RedisServer, fleet: Fleet
) -> None:
    # a day of 5 s: each first move must come within it, even on a loaded machine
    fast = {"TICTACTOE_CORRESPONDENCE_DAY": "5", "TICTACTOE_DEADLINE_SCAN": "0.1"}
    servers = [fleet.launch(store_url=aof_server.url, env=fast) for _ in range(2)]
    for server in servers:
        server.wait_ready()
    ada, grace = await identity(servers[0], "Ada"), await identity(servers[0], "Grace")
    room_id = await correspondence_room(servers[0])
    async with connect(servers[0].ws(room_id)) as x_ws, connect(servers[1].ws(room_id)) as o_ws:
        x, o = Seat(x_ws), Seat(o_ws)
        await x.join(player=ada)
        welcome = await o.join(player=grace)
        await x.move(1, 1, welcome["version"])
        await o.move(0, 0, x.version)
    # the players are gone; X's day runs out with nobody connected
    deadline = (await games_of(servers[1], ada))[0]["deadline"]
    await asyncio.sleep(max(deadline - time.time(), 0))
    servers[0].kill()  # the worker that served X, killed -9 at the deadline

    async def ended() -> bool:
        events = await logged_events(aof_server.url, room_id)
        return any(e["type"] == "game_over" for e in events)  # falsy: not yet

    await eventually(ended, "the game ended by its deadline", timeout=WAIT, interval=0.1)
    fresh = fleet.launch(store_url=aof_server.url, env=fast)  # scans the deadlines too
    fresh.wait_ready()
    await asyncio.sleep(0.5)  # several more scans of every live server: none may end it again
    events = await logged_events(aof_server.url, room_id)
    overs = [e for e in events if e["type"] == "game_over"]
    assert len(overs) == 1
    assert overs[0]["outcome"]["reason"] == "timeout" and overs[0]["outcome"]["winner"] == "O"
    assert overs[0]["by"] is None and overs[0]["at"] >= deadline
    assert await games_of(fresh, grace) == []
