"""End to end on Redis: real ``tictactoe serve`` processes, real WebSocket clients.

One server with ``--workers 2`` (uvicorn worker processes sharing a private redis-server),
and two separate servers on the same Redis with each player on a different one, so every
move crosses processes through the Redis store and bus.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from tests.support.redis_server import RedisServer, free_port

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0  # a bound against hangs, never a measurement


class Serve:
    """A ``tictactoe serve`` subprocess on a free port, stopped by its pid."""

    def __init__(self, redis_url: str, *flags: str) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server.cli",
                "serve",
                "--port",
                str(self.port),
                "--redis-url",
                redis_url,
                "--log-level",
                "warning",
                *flags,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, room_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{room_id}"

    def wait_ready(self) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                _, err = self.process.communicate(timeout=10)
                raise AssertionError(f"serve exited with {self.process.returncode}: {err}")
            try:
                response = httpx.get(f"{self.url}/readyz", timeout=2)
                if response.status_code == 200:
                    ready: dict[str, Any] = response.json()
                    return ready
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise AssertionError("serve did not become ready")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # uvicorn's graceful shutdown
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process.communicate(timeout=10)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    with RedisServer(tmp_path / "redis") as server:
        yield server


@pytest.fixture
def serves() -> Iterator[list[Serve]]:
    started: list[Serve] = []
    yield started
    for serve in started:
        serve.stop()


class Player:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []

    async def next(self, kind: str, version: int | None = None) -> dict[str, Any]:
        """The next message of type ``kind`` (at ``version`` if given); every message
        received is kept in ``seen``."""
        async with asyncio.timeout(WAIT):
            while True:
                message = json.loads(await self.ws.recv())
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


async def play_a_game(x_server: Serve, o_server: Serve, watch_server: Serve) -> None:
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
    redis_server: RedisServer, serves: list[Serve]
) -> None:
    serve = Serve(redis_server.url, "--workers", "2")
    serves.append(serve)
    assert serve.wait_ready() == {"status": "ready", "store": "redis"}
    # Each worker process opened its one pub/sub connection at startup.
    sync = redis_server.client()

    def buses() -> int:
        return sum(client["name"] == "ttt-bus" for client in sync.client_list())

    deadline = time.monotonic() + WAIT
    while buses() < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert buses() == 2
    await play_a_game(serve, serve, serve)


async def test_players_on_two_servers_share_rooms_through_redis(
    redis_server: RedisServer, serves: list[Serve]
) -> None:
    one, two = Serve(redis_server.url), Serve(redis_server.url)
    serves.extend((one, two))
    one.wait_ready()
    two.wait_ready()
    await play_a_game(one, two, two)
