"""One protocol scenario, run both ways: with the fastpath (frames past Starlette, uvicorn's
protocol subclasses, Redis auto-pipelining, GC tuning) and with ``--no-fastpath`` (plain
Starlette, uvicorn's stock protocols, plain redis-py). Both must say exactly the same.

A real ``tictactoe serve`` process on a free port and a private redis-server; two players
and a spectator over the real ``websockets`` client: join, moves, an illegal move, a
retried ``move_id``, the game's end, and the spectator sees every versioned event.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.support.server_process import Fleet, ServerProcess, create_room, snapshot
from tests.support.ws_client import Client

pytestmark = pytest.mark.redis


async def _client(server: ServerProcess, room_id: str) -> Client:
    return Client(await connect(server.ws(room_id), proxy=None))


def _shape(message: dict[str, Any]) -> tuple[Any, ...]:
    """What must match whichever path sent it: the type, version and move of a message."""
    return (
        message["type"],
        message.get("version"),
        message.get("mark"),
        message.get("row"),
        message.get("col"),
        message.get("status"),
    )


@pytest.mark.parametrize("fastpath", [True, False], ids=["fastpath", "no-fastpath"])
async def test_a_game_says_the_same_with_and_without_the_fastpath(
    fleet: Fleet, redis_url: str, fastpath: bool
) -> None:
    server = fleet.launch(*(() if fastpath else ("--no-fastpath",)), store_url=redis_url)
    server.wait_ready()
    async with httpx.AsyncClient() as http:
        stats = (await http.get(f"{server.url}/api/stats", timeout=15)).json()
    assert stats["fastpath"] is fastpath
    assert ("young_ticks" in stats["gc"]) is fastpath  # GC tuning follows the fastpath

    room_id = await create_room(server, {}, public=False)
    x, o, watcher = [await _client(server, room_id) for _ in range(3)]
    clients = (x, o, watcher)
    try:
        assert (await x.join(name="Ada"))["mark"] == "X"
        assert (await o.join(name="Grace"))["mark"] == "O"
        welcome = await watcher.join("spectator", name="Bob")
        assert welcome["role"] == "spectator" and welcome["token"] is None
        start = welcome["version"]
        await x.seen(start)
        await o.seen(start)

        first = await x.move(1, 1, move_id="x-1")
        assert (first["type"], first["duplicate"], first["version"]) == (
            "move_ok",
            False,
            start + 1,
        )
        await o.seen(first["version"])
        # an illegal move: a typed error naming the move, and nothing changes
        error = await o.move(1, 1, move_id="o-taken")
        assert (error["type"], error["code"], error["ref"]) == ("error", "occupied", "o-taken")
        # a retried move_id: acknowledged again, not played twice
        again = await x.move(1, 1, version=start, move_id="x-1")
        assert again == {**first, "duplicate": True}
        for row, col, mover in ((0, 0, o), (0, 1, x), (0, 2, o), (2, 1, x)):
            ok = await mover.move(row, col)
            assert ok["type"] == "move_ok" and ok["duplicate"] is False, ok
            for player in (x, o):  # the mover's move_ok has the version before its event
                await player.until("moved", version=ok["version"])
            await watcher.seen(ok["version"])
        final = await watcher.until("moved", version=ok["version"])
        assert final["status"] == "finished"
        assert (final["outcome"]["reason"], final["outcome"]["winner"]) == ("line", "X")

        events = watcher.events
        versions = [event["version"] for event in events]
        assert versions == list(range(start + 1, start + 1 + len(versions)))  # no gap
        assert [_shape(event) for event in events] == [
            ("moved", start + 1, "X", 1, 1, "playing"),
            ("moved", start + 2, "O", 0, 0, "playing"),
            ("moved", start + 3, "X", 0, 1, "playing"),
            ("moved", start + 4, "O", 0, 2, "playing"),
            ("moved", start + 5, "X", 2, 1, "finished"),
        ]
        for player in (x, o):  # the players saw the same events as the spectator
            assert [e for e in player.events if e["version"] > start] == events
        stored = await snapshot(server, room_id)
        assert stored["status"] == "finished" and stored["ply"] == 5
        assert stored["version"] == start + 5
    finally:
        for client in clients:
            if not client.done:
                await client.close()
