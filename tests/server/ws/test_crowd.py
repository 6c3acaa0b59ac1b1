"""A crowd that arrives at once (a shared link): every spectator is let in, nobody is
dropped as too slow, and everyone already there sees a few ``spectators`` events rather
than one per newcomer, because spectators arriving together are joined in one commit
(rooms.presence.rooms); the same when the crowd leaves at once. Real uvicorn, real
websockets clients."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from tests.support.live_server import LiveServer
from tests.support.ws_client import WAIT

CROWD = 200


async def test_a_crowd_arriving_at_once_is_let_in_with_a_few_events(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    player = await connect(server, room_id)
    await player.join("player")
    crowd = await asyncio.gather(*(connect(server, room_id) for _ in range(CROWD)))
    welcomes = await asyncio.wait_for(
        asyncio.gather(*(spectator.join("spectator") for spectator in crowd)), WAIT
    )
    assert all(welcome["role"] == "spectator" for welcome in welcomes)
    last = max(welcome["state"]["version"] for welcome in welcomes)
    await player.seen(last)
    counts = [event["count"] for event in player.events if event["type"] == "spectators"]
    assert counts[-1] == CROWD and counts == sorted(counts)
    assert len(counts) < CROWD // 4, counts  # joined in groups, not one event each
    assert not any(spectator.done for spectator in crowd)  # nobody dropped (4009)
    for spectator in crowd:  # and each saw every later event once, in order
        await spectator.seen(last)
        versions = [event["version"] for event in spectator.events]
        assert versions == sorted(set(versions))
    snapshot = await server.snapshot(room_id)
    assert snapshot["spectators"] == CROWD
    seen = len(player.events)
    await asyncio.wait_for(asyncio.gather(*(spectator.close() for spectator in crowd)), WAIT)
    await player.until("spectators", count=0)
    counts = [event["count"] for event in player.events[seen:] if event["type"] == "spectators"]
    assert counts == sorted(counts, reverse=True) and counts[-1] == 0
    assert len(counts) < CROWD // 4, counts  # recorded in groups, not one event each
    assert (await server.snapshot(room_id))["spectators"] == 0
