"""End to end on Redis: real ``tictactoe serve`` processes, real WebSocket clients.

One server with ``--workers 2`` (uvicorn worker processes sharing a private redis-server),
and two separate servers on the same Redis with each player on a different one, so every
move crosses processes through the Redis store and bus.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from tests.support.redis_server import RedisServer
from tests.support.server_process import Fleet, ServerProcess
from tests.support.waiting import eventually_sync

pytestmark = [pytest.mark.redis, pytest.mark.slow]  # a chaos suite: the slow tier

WAIT = 30.0  # a bound against hangs, never a measurement


class Player:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []

    async def next(self, kind: str, version: int | None = None) -> dict[str, Any]:
        """The next message of type ``kind`` (at ``version`` if given); every message
        received is kept in ``seen``."""
        async with asyncio.timeout(WAIT):
            while True:
                message: dict[str, Any] = json.loads(await self.ws.recv())
                self.seen.append(message)
                if message["type"] == kind and version in (None, message.get("version")):
                    return message

    async def join(self, role: str = "player") -> dict[str, Any]:
        await self.ws.send(json.dumps({"type": "join", "as": role, "name": role}))
        return await self.next("welcome")

    async def move(self, row: int, col: int, version: int, move_id: str) -> dict[str, Any]:
        await self.ws.send(
            json.dumps(
                {"type": "move", "row": row, "col": col, "version": version, "move_id": move_id}
            )
        )
        return await self.next("move_ok")


async def play_a_game(
    x_server: ServerProcess, o_server: ServerProcess, watch_server: ServerProcess
) -> None:
    async with httpx.AsyncClient() as http:
        created = await http.post(
            f"{x_server.url}/api/rooms", json={"rules": {}, "public": True}, timeout=10
        )
    assert created.status_code == 201, created.text
    room_id = created.json()["room_id"]
    async with (
        connect(x_server.ws(room_id), proxy=None) as x_ws,
        connect(o_server.ws(room_id), proxy=None) as o_ws,
        connect(watch_server.ws(room_id), proxy=None) as w_ws,
    ):
        watcher, x, o = Player(w_ws), Player(x_ws), Player(o_ws)
        await watcher.join("spectator")
        assert (await x.join())["mark"] == "X"
        welcome = await o.join()
        assert welcome["mark"] == "O" and welcome["state"]["status"] == "playing"
        version = welcome["version"]
        assert (await x.next("player_joined"))["version"] == version  # across processes
        # X wins on the top row; O answers in the middle row.
        for mover, other, (row, col) in (
            (x, o, (0, 0)),
            (o, x, (1, 0)),
            (x, o, (0, 1)),
            (o, x, (1, 1)),
            (x, o, (0, 2)),
        ):
            ok = await mover.move(row, col, version, f"{row}{col}")
            assert ok["version"] == version + 1 and ok["duplicate"] is False
            version += 1
            moved = await other.next("moved", version)  # crossed to the other process
            assert (moved["mark"], moved["row"], moved["col"]) == (
                "X" if mover is x else "O",
                row,
                col,
            )
        final = await watcher.next("moved", version)
        assert final["status"] == "finished" and final["outcome"]["winner"] == "X"
        for client in (watcher, x, o):  # every event in order, none twice, none missing
            if not any(m["type"] == "moved" and m["version"] == version for m in client.seen):
                await client.next("moved", version)  # may come after the mover's move_ok
            versions = [m["version"] for m in client.seen if m["type"] == "moved"]
            assert versions == list(range(version - 4, version + 1))
    for serve in {x_server, o_server, watch_server}:
        async with httpx.AsyncClient() as http:
            snapshot = (await http.get(f"{serve.url}/api/rooms/{room_id}", timeout=10)).json()
        assert snapshot["status"] == "finished" and snapshot["board"] == "XXX/OO./..."


async def test_two_uvicorn_workers_on_redis_play_a_game(
    own_redis_server: RedisServer, fleet: Fleet
) -> None:
    (serve,) = fleet.start(own_redis_server.url, 1, "--workers", "2")
    assert serve.wait_ready() == {"status": "ready", "store": "redis"}
    # Each worker process opened its one pub/sub connection at startup.
    sync = own_redis_server.client()

    def buses() -> int:
        return sum(client["name"] == "ttt-bus" for client in sync.client_list())

    eventually_sync(lambda: buses() >= 2, "both workers' bus connections", timeout=WAIT)
    assert buses() == 2
    await play_a_game(serve, serve, serve)


async def test_players_on_two_servers_share_rooms_through_redis(
    own_redis_server: RedisServer, fleet: Fleet
) -> None:
    one, two = fleet.start(own_redis_server.url, 2)
    await play_a_game(one, two, two)
