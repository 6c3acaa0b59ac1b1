"""The bare relay publishes the server's events during play, with the server's fields.

Both run for real (uvicorn on a free port; in memory, and on a private Redis with two
workers), driven by the real websockets client through one short game and a rematch. The
relay is the limit every server figure is compared with, so what it sends must cost what
the server's events cost: the same events in the same order, to the same connections,
with the same keys.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from bench.load import CONFIGS
from bench.load.crowd import _queued
from bench.load.http import HttpPool
from bench.load.launch import Launched, launch

MOVES = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]  # X completes the top row at the fifth


@pytest.fixture(
    scope="module",
    params=[
        "memory",
        pytest.param("redis2", marks=pytest.mark.redis),
    ],
)
def launched(request: pytest.FixtureRequest) -> Iterator[dict[str, Launched]]:
    """Server and relay in one configuration: in memory, and on Redis with two workers,
    where the relay counts a room's rematch votes with ``INCR`` (the players may be on two
    workers) instead of in the process."""
    config = CONFIGS[request.param]
    redis = request.getfixturevalue("redis_url") if config.store == "redis" else None
    started: dict[str, Launched] = {}
    try:
        for target in ("server", "relay"):
            started[target] = launch(target, config, redis)
        yield started
    finally:
        for one in started.values():
            one.stop()


async def _join(url: str, role: str) -> tuple[ClientConnection, int]:
    ws = await connect(url, max_size=None, compression=None)
    await ws.send(json.dumps({"type": "join", "as": role, "name": role}))
    while True:
        welcome = json.loads(await ws.recv())
        if welcome["type"] == "welcome":
            return ws, int(welcome["version"])


async def _until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    async with asyncio.timeout(10):
        while True:
            event: dict[str, Any] = json.loads(await ws.recv())
            if event["type"] == kind:
                return event


async def _events_seen(base: str) -> list[dict[str, Any]]:
    """What a spectator receives of a game's moves and of the two players' rematch votes
    (presence events left out)."""
    http = HttpPool(base)
    try:
        room_id = await http.create_room({})
    finally:
        await http.close()
    url = base.replace("http", "ws", 1) + f"/ws/{room_id}"
    x, _ = await _join(url, "player")
    o, version = await _join(url, "player")
    watcher, _ = await _join(url, "spectator")
    seen: list[dict[str, Any]] = []
    try:
        for ply, (row, col) in enumerate(MOVES):
            await (x, o)[ply % 2].send(
                json.dumps(
                    {
                        "type": "move",
                        "row": row,
                        "col": col,
                        "version": version,
                        "move_id": f"m{ply}",
                    }
                )
            )
            moved = await _until(watcher, "moved")
            version = moved["version"]
            seen.append(moved)
        for index, player in enumerate((x, o)):
            await player.send(
                json.dumps({"type": "rematch", "id": f"r{index}", "version": version})
            )
            seen.append(await _until(watcher, ("rematch_offered", "new_game")[index]))
        # the crowd's readers look into the client's own queue (bench.load.crowd._queued)
        assert len(watcher.recv_messages.frames) == _queued(watcher) == 0
    finally:
        await asyncio.gather(*(ws.close() for ws in (x, o, watcher)))
    return seen


def test_the_relay_sends_the_servers_events_with_the_servers_fields(
    launched: dict[str, Launched],
) -> None:
    server = asyncio.run(_events_seen(launched["server"].url))
    relay = asyncio.run(_events_seen(launched["relay"].url))
    kinds = ["moved"] * len(MOVES) + ["rematch_offered", "new_game"]
    for seen in (server, relay):
        assert [event["type"] for event in seen] == kinds
        versions = [event["version"] for event in seen]
        assert versions == list(range(versions[0], versions[0] + len(seen)))
        assert seen[-1]["marks"] == {"X": "O", "O": "X"}
    last = len(MOVES) - 1
    for ply, (mine, theirs) in enumerate(zip(server, relay, strict=True)):
        if ply == last:  # the server adds the outcome's players: it knows the game ended
            assert set(theirs) < set(mine) and set(mine) - set(theirs) == {"players"}
        else:
            assert list(theirs) == list(mine)  # the same keys, in the same order
        if mine["type"] == "new_game":
            assert [list(seat) for seat in theirs["players"]] == [
                list(seat) for seat in mine["players"]
            ]
        mine_size, theirs_size = len(json.dumps(mine)), len(json.dumps(theirs))
        if ply != last:
            assert abs(mine_size - theirs_size) <= 0.05 * mine_size, (mine, theirs)
