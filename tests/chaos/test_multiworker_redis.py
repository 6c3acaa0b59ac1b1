"""Redis faults under real server processes with real clients playing.

* Redis (AOF on, ``appendfsync always``) is killed and restarted twice mid-game: play
  continues, and nothing acknowledged is lost or applied twice.
* Redis is frozen (SIGSTOP) for a few seconds mid-game: clients get ``unavailable`` errors
  that say to retry, ``/readyz`` answers 503 on every process while Redis is stopped and
  200 again after SIGCONT, and then the games finish with nothing lost or doubled.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.chaos.peers import chooser
from tests.chaos.tables import Table, audit, open_table, play
from tests.support.redis_server import RedisServer
from tests.support.server_process import Fleet, ServerProcess
from tests.support.waiting import eventually

pytestmark = [pytest.mark.redis, pytest.mark.slow]  # a chaos suite: the slow tier

BOUND = 30.0  # a safety net against hangs, never a measurement


async def open_tables(servers: list[ServerProcess], count: int) -> list[Table]:
    choose = chooser(servers)
    tables = []
    for index in range(count):
        x_on, o_on = servers[index % 2], servers[(index + 1) % 2]
        tables.append(await open_table(x_on, x_on, o_on, [o_on, x_on], choose))
    return tables


async def until_played(tables: list[Table], moves: int) -> None:
    await eventually(
        lambda: sum(table.played for table in tables) >= moves,
        f"the games at {moves} moves",
        timeout=BOUND,
        interval=0.01,
    )


async def finish(
    tables: list[Table], games: list[asyncio.Task[None]], server: ServerProcess
) -> None:
    await asyncio.wait_for(asyncio.gather(*games), 120)
    for table in tables:
        await audit(table, server)
        for peer in table.peers:
            await peer.close()


async def test_redis_restarted_from_its_aof_mid_game(aof_server: RedisServer, fleet: Fleet) -> None:
    servers = fleet.start(aof_server.url, 2)
    tables = await open_tables(servers, 3)
    games = [asyncio.create_task(play(table, pace=0.02)) for table in tables]
    for moves in (10, 35):  # of the 75 moves to play
        await until_played(tables, moves)
        await asyncio.to_thread(aof_server.restart)  # kill -9, then start from the AOF
    await finish(tables, games, servers[1])
    for server in servers:
        assert (await server.readyz())[0] == 200


async def test_redis_frozen_mid_game_is_unavailable_then_recovers(
    aof_server: RedisServer, fleet: Fleet
) -> None:
    servers = fleet.start(aof_server.url, 2)
    tables = await open_tables(servers, 2)
    games = [asyncio.create_task(play(table, pace=0.02)) for table in tables]
    await until_played(tables, 8)
    peers = [peer for table in tables for peer in (table.x, table.o)]

    aof_server.pause()  # SIGSTOP: connections stay open, nothing answers
    try:
        # The games keep trying: their moves are refused with a clear, typed error.
        await eventually(
            lambda: any(e["code"] == "unavailable" for peer in peers for e in peer.errors),
            "an unavailable error while Redis is stopped",
            timeout=BOUND,
        )
        for status, body in await asyncio.gather(*(s.readyz() for s in servers)):
            assert status == 503, body
            assert body["status"] == "unavailable" and "retry" in body["message"]
    finally:
        aof_server.resume()  # SIGCONT

    for server in servers:

        async def ready(server: ServerProcess = server) -> bool:
            return (await server.readyz())[0] == 200

        await eventually(ready, f"{server} ready again", timeout=BOUND, interval=0.1)
    await finish(tables, games, servers[0])
    refusals = [e for peer in peers for e in peer.errors]
    assert refusals and {e["code"] for e in refusals} == {"unavailable"}
    assert all("retry" in e["message"] for e in refusals)
