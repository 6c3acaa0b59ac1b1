"""Games through the deployment's load balancer (deploy/haproxy.cfg under a real HAProxy).

Two server processes share one private Redis behind HAProxy; every client connects only
to HAProxy, which keeps each room's players, page and API on one server (the room id
hashed onto a consistent ring) and spreads spectators' sockets on the spectators' path by
open connections. WebSockets pass through it (the upgrade, then a long-lived tunnel), the
browser's Origin and Host reach the server unchanged, and when a server of the ring is
killed mid-game its clients' reconnects are sent to the survivor (a refused connection is
redispatched; the /readyz checks take the dead server out) and the games finish with
nothing lost or doubled: the survivor serves rooms whose players it never held, through
Redis, as any server can.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from tests.chaos.balancer import SERVED_BY, LoadBalancer
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


async def served_by(lb: LoadBalancer, path: str) -> str:
    """The ``backend/server`` that answered a GET of ``path`` through the balancer."""
    async with httpx.AsyncClient() as http:
        response = await http.get(f"{lb.url}{path}", timeout=15)
    assert response.status_code == 200, response.text
    return response.headers[SERVED_BY]


async def joined(url: str, role: str) -> tuple[ClientConnection, str]:
    """A socket through the balancer, joined as ``role``; the server it landed on."""
    ws = await connect(url, proxy=None, open_timeout=15)
    await ws.send(json.dumps({"type": "join", "as": role}))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), 20))
    assert welcome["type"] == "welcome", welcome
    assert ws.response is not None
    return ws, ws.response.headers[SERVED_BY]


async def test_the_balancer_passes_websockets_origin_and_host(started: LoadBalancer) -> None:
    async with httpx.AsyncClient() as http:
        response = await http.post(f"{started.url}/api/rooms", json={"public": True})
    assert response.status_code == 201
    links = response.json()["links"]
    room_id = response.json()["room_id"]
    assert links["ws"] == started.ws(room_id)  # the Host the browser used, not a replica's
    assert links["ws_watch"] == started.ws(room_id) + "/watch"
    origin = started.url  # a page served through the balancer
    async with connect(started.ws(room_id), proxy=None, origin=Origin(origin)) as ws:
        await ws.send(json.dumps({"type": "join", "as": "spectator"}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 20))
    assert welcome["type"] == "welcome" and welcome["room_id"] == room_id


async def test_a_rooms_players_land_on_one_server_and_its_spectators_spread(
    started: LoadBalancer,
) -> None:
    opened: list[ClientConnection] = []
    owners: dict[str, str] = {}
    both = {"rooms/app1", "rooms/app2"}
    # Twelve rooms at least, more until the ring gave each server one (bounded): on a busy
    # host a server's /readyz can answer late enough for the rooms backend's check to mark
    # it down for a few seconds (fall 2, rise 2, every 2 s), all rooms then hashing to the
    # other one (seen once: twelve rooms on app2).
    deadline = asyncio.get_running_loop().time() + 60
    try:
        while len(owners) < 12 or (
            set(owners.values()) != both and asyncio.get_running_loop().time() < deadline
        ):
            if len(owners) >= 12:
                await asyncio.sleep(0.5)  # time for the checks to bring the other one back
            room_id = await create_room(started, RULES, public=False)
            x, on_x = await joined(started.ws(room_id), "player")
            o, on_o = await joined(started.ws(room_id), "player")
            opened += [x, o]
            assert on_x == on_o and on_x.startswith("rooms/"), (on_x, on_o)
            # the room's page and API go where its players are
            assert await served_by(started, f"/r/{room_id}") == on_x
            assert await served_by(started, f"/api/rooms/{room_id}") == on_x
            assert await served_by(started, f"/api/rooms/{room_id}/record.txt") == on_x
            owners[room_id] = on_x
        assert set(owners.values()) == both  # the ring holds both
        crowd = next(iter(owners))
        spread = []
        for _ in range(6):
            ws, on = await joined(started.ws(crowd) + "/watch", "spectator")
            opened.append(ws)
            spread.append(on)
        # leastconn over open spectators' sockets: three each, whoever holds the players
        assert sorted(spread) == ["crowd/app1"] * 3 + ["crowd/app2"] * 3
        assert (await served_by(started, f"/r/{crowd}/watch")).startswith("crowd/")
        assert (await served_by(started, "/api/rooms")).startswith("app/")
    finally:
        await asyncio.gather(*(ws.close() for ws in opened))


async def rooms_on_each_server(lb: LoadBalancer, each: int) -> dict[str, list[str]]:
    """New rooms until each server owns ``each`` of them (bounded); room ids by owner."""
    owned: dict[str, list[str]] = {"rooms/app1": [], "rooms/app2": []}
    for _ in range(200):
        if all(len(rooms) >= each for rooms in owned.values()):
            return {owner: rooms[:each] for owner, rooms in owned.items()}
        room_id = await create_room(lb, RULES, public=False)
        owned[await served_by(lb, f"/api/rooms/{room_id}")].append(room_id)
    raise AssertionError(f"the ring never gave each server {each} rooms: {owned}")


async def test_games_through_the_balancer_survive_a_killed_server_of_the_ring(
    started: LoadBalancer, fleet: Fleet
) -> None:
    choose = chooser([started])
    owned = await rooms_on_each_server(started, 2)
    tables: dict[str, list[Table]] = {owner: [] for owner in owned}
    for owner, rooms in owned.items():
        for room_id in rooms:
            table = await open_table(
                started,
                started,
                started,
                [started, started],
                choose,
                room_id=room_id,
                watch_path=True,
            )
            assert table.x.served_by == table.o.served_by == [owner]
            tables[owner].append(table)
    everyone = [table for owner_tables in tables.values() for table in owner_tables]
    watchers = [peer for table in everyone for peer in table.watchers]
    assert {peer.served_by[0] for peer in watchers} == {"crowd/app1", "crowd/app2"}
    games = [asyncio.create_task(play(table, pace=0.03)) for table in everyone]
    await eventually(
        lambda: sum(table.played for table in everyone) >= 12, "the games under way", interval=0.01
    )
    fleet.servers[0].kill()  # app1: the owner of two rooms, and some of every crowd
    await asyncio.wait_for(asyncio.gather(*games), 120)
    for table in everyone:
        await audit(table, started)
    for table in tables["rooms/app1"]:  # its players came back on the survivor
        for player in (table.x, table.o):
            assert player.reconnects and player.served_by[-1] == "rooms/app2", player.served_by
    for table in tables["rooms/app2"]:  # the survivor's own rooms never moved
        assert table.x.served_by == table.o.served_by == ["rooms/app2"]
    moved = [peer for peer in watchers if peer.served_by[0] == "crowd/app1"]
    assert moved and all(peer.served_by[-1] == "crowd/app2" for peer in moved)
    for table in everyone:
        for peer in table.peers:
            await peer.close()
