"""Full games across two worker processes on a Redis Cluster.

Two real ``tictactoe serve --redis-url redis+cluster://...`` processes share a private
three-master cluster. Three rooms, one on each master, are played at once: in each, X is
on one process, O on the other, and spectators on both, so every move crosses processes
through the cluster: committed by a Lua script on the room's master, SPUBLISHed in its
shard, and fanned out by the other process's sharded subscription.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from tests.chaos.peers import chooser
from tests.chaos.tables import RULES, audit, open_table, play
from tests.support.redis_cluster import LocalCluster
from tests.support.server_process import Fleet, create_room, snapshot

pytestmark = pytest.mark.redis


async def test_full_games_across_two_workers_on_a_cluster(
    start_redis_cluster: Callable[..., LocalCluster], fleet: Fleet
) -> None:
    cluster = start_redis_cluster(appendonly=True)
    one, two = fleet.start(cluster.url, 2)
    ready = await one.readyz()
    assert ready == (200, {"status": "ready", "store": "redis-cluster"})
    choose = chooser([one, two])
    # Rooms get random ids: create until one lands on each master (bounded).
    by_master: dict[int, str] = {}
    for _ in range(60):
        room_id = await create_room(one, RULES, public=True)
        by_master.setdefault(cluster.node_for_key(f"{{{room_id}}}").port, room_id)
        if len(by_master) == len(cluster.nodes):
            break
    assert len(by_master) == len(cluster.nodes)
    tables = [
        await open_table(one, one, two, [two, one], choose, room_id=room_id)
        for room_id in by_master.values()
    ]
    await asyncio.wait_for(asyncio.gather(*(play(table) for table in tables)), 120)
    for table in tables:
        final = await audit(table, two)
        assert final["outcome"]["reason"] == "board_full"
        seen_by_one = await snapshot(one, table.room_id)
        assert [seen_by_one[k] for k in ("board", "moves", "outcome")] == [
            final[k] for k in ("board", "moves", "outcome")
        ]
        for peer in table.peers:
            assert peer.reconnects == 0 and peer.errors == []
            await peer.close()
    # Each worker holds one sharded pub/sub connection per master, no more.
    for node in cluster.nodes:
        client = node.client()
        try:
            buses = [c for c in client.client_list() if c["name"] == "ttt-bus"]
        finally:
            client.close()
        assert len(buses) == 2, (node.port, buses)
