"""A command's answer reaches its connection before the event the command committed, and
that event once: on the memory store, and on Redis, where the commit's own event usually
comes back on the bus before the commit's answer (server.ws.session, rooms.fanout.feed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.support.live_server import LiveServer
from tests.support.server_process import Fleet, create_room
from tests.support.ws_client import Client

GAME = ((1, 1), (0, 0), (0, 1), (0, 2), (2, 1))  # X wins down the middle column


async def _play_and_check(x: Client, o: Client, watcher: Client) -> None:
    # Every earlier event in first: a move made before the watcher's join event reached its
    # mover is answered alone (its event is not the next one owed), then both events follow.
    for player in (x, o):
        await player.seen(watcher.version)
    for ply, (row, col) in enumerate(GAME):
        mover = (x, o)[ply % 2]
        ok = await mover.move(row, col)
        assert ok["type"] == "move_ok", ok
        moved = await mover.until("moved", version=ok["version"])
        # the answer, then at once its own event
        assert mover.log.index(moved) == mover.log.index(ok) + 1, mover.log
        for client in (x, o, watcher):
            await client.seen(ok["version"])
    vote = await o.act("rematch")  # an action's ack comes before its event too
    assert vote["type"] == "ack"
    offered = await o.until("rematch_offered", version=vote["version"])
    assert o.log.index(offered) == o.log.index(vote) + 1, o.log
    await watcher.seen(vote["version"])
    for client in (x, o, watcher):
        versions = [e["version"] for e in client.events]
        assert versions == sorted(set(versions)), client.log  # each event once, in order
        assert versions[-1] == vote["version"]


async def test_the_answer_comes_first_and_its_event_once_on_the_memory_store(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    x, o, watcher = [await connect(server, room_id) for _ in range(3)]
    await x.join()
    await o.join()
    await watcher.join("spectator")
    await _play_and_check(x, o, watcher)


@pytest.mark.redis
async def test_the_answer_comes_first_and_its_event_once_on_redis(
    fleet: Fleet, redis_url: str
) -> None:
    server = fleet.launch(store_url=redis_url)
    server.wait_ready()
    room_id = await create_room(server, {}, public=False)
    x, o, watcher = [Client(await connect(server.ws(room_id), proxy=None)) for _ in range(3)]
    try:
        await x.join()
        await o.join()
        await watcher.join("spectator")
        await _play_and_check(x, o, watcher)
    finally:
        for client in (x, o, watcher):
            if not client.done:
                await client.close()
