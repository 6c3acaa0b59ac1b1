"""Games through the deployment's load balancer (deploy/haproxy.cfg under a real HAProxy).

Two server processes share one private Redis behind HAProxy; every client connects only
to HAProxy, which balances by open connections with no stickiness. WebSockets pass
through it (the upgrade, then a long-lived tunnel), the browser's Origin and Host reach
the server unchanged, and when a server is killed mid-game its clients' reconnects are
sent to the survivor (a refused connection is redispatched; the /readyz checks take the
dead server out) and the games finish with nothing lost or doubled.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from tests.chaos.balancer import LoadBalancer
from tests.chaos.peers import chooser
from tests.chaos.tables import RULES, Table, audit, open_table, play
from tests.support.redis_server import RedisServer
from tests.support.server_process import Fleet, create_room
from tests.support.waiting import eventually

pytestmark = pytest.mark.redis


@pytest.fixture
def balancer_dir(tmp_path: Path) -> Path:
    return tmp_path / "haproxy"


@pytest.fixture
def started(aof_server: RedisServer, fleet: Fleet, balancer_dir: Path) -> Iterator[LoadBalancer]:
    servers = fleet.start(aof_server.url, 2)
    lb = LoadBalancer(servers, balancer_dir)
    try:
        lb.wait_ready()
        yield lb
    finally:
        lb.stop()


async def test_the_balancer_passes_websockets_origin_and_host(started: LoadBalancer) -> None:
    async with httpx.AsyncClient() as http:
        response = await http.post(f"{started.url}/api/rooms", json={"public": True})
    assert response.status_code == 201
    links = response.json()["links"]
    room_id = response.json()["room_id"]
    assert links["ws"] == started.ws(room_id)  # the Host the browser used, not a replica's
    origin = started.url  # a page served through the balancer
    async with connect(started.ws(room_id), proxy=None, origin=Origin(origin)) as ws:
        await ws.send(json.dumps({"type": "join", "as": "spectator"}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 20))
    assert welcome["type"] == "welcome" and welcome["room_id"] == room_id


async def test_games_through_the_balancer_survive_a_killed_server(
    started: LoadBalancer, fleet: Fleet
) -> None:
    choose = chooser([started])
    tables: list[Table] = []
    for _ in range(4):
        room_id = await create_room(started, RULES, public=False)
        tables.append(
            await open_table(started, started, started, [started, started], choose, room_id=room_id)
        )
    games = [asyncio.create_task(play(table, pace=0.03)) for table in tables]
    await eventually(
        lambda: sum(table.played for table in tables) >= 12, "the games under way", interval=0.01
    )
    victim = fleet.servers[0]
    victim.kill()
    await asyncio.wait_for(asyncio.gather(*games), 120)
    for table in tables:
        await audit(table, started)
    peers = [peer for table in tables for peer in table.peers]
    # With leastconn over two servers, about half the clients were on the killed one.
    assert any(peer.reconnects for peer in peers)
    for peer in peers:
        await peer.close()
