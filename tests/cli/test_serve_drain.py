"""The drain of a real ``tictactoe serve``: after SIGTERM with ``--drain-period``, or from
SIGUSR1, ``/readyz`` answers 503 ``draining`` while the open games go on (moves are
acknowledged, new requests served); only once the period has passed are the WebSockets
closed with 1012, and the process exits with 143."""

from __future__ import annotations

import asyncio
import signal
import time

import httpx
import psutil
import pytest
from websockets.asyncio.client import connect

from tests.support.server_process import Fleet, ServerProcess, create_room
from tests.support.waiting import eventually
from tests.support.ws_client import Client

# signals, drains and worker restarts of real multi-worker servers: a chaos suite, slow tier
pytestmark = [pytest.mark.redis, pytest.mark.slow]

DRAIN = 10.0


async def readyz(server: ServerProcess) -> tuple[int, str]:
    async with httpx.AsyncClient() as http:
        response = await http.get(f"{server.url}/readyz", timeout=10)
    return response.status_code, response.json()["status"]


async def ready(server: ServerProcess) -> None:
    async def answered() -> bool:
        assert server.alive, server.log_tail()
        return (await readyz(server))[0] == 200

    await eventually(answered, f"{server} ready", timeout=120, ignoring=(httpx.HTTPError,))


async def players(server: ServerProcess) -> tuple[Client, Client]:
    room_id = await create_room(server, {}, public=False)
    x = Client(await connect(server.ws(room_id), proxy=None))
    o = Client(await connect(server.ws(room_id), proxy=None))
    assert (await x.join(name="Ada"))["type"] == "welcome"
    assert (await o.join(name="Grace"))["type"] == "welcome"
    await x.seen(o.welcome["version"] if o.welcome else 0)
    return x, o


async def all_draining(server: ServerProcess) -> bool:
    """Every answer (from whichever worker takes it) is 503 draining."""
    answers = [await readyz(server) for _ in range(6)]
    return all(answer == (503, "draining") for answer in answers)


@pytest.mark.parametrize("workers", ["1", "2"])
async def test_sigterm_drains_then_closes_with_1012(
    fleet: Fleet, redis_url: str, workers: str
) -> None:
    server = fleet.launch("--workers", workers, "--drain-period", str(DRAIN), store_url=redis_url)
    await ready(server)
    x, o = await players(server)
    began = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    await eventually(lambda: all_draining(server), "/readyz draining", timeout=DRAIN / 2)
    # the games go on: a move is acknowledged and seen by the opponent, a request served
    answer = await x.move(1, 1, move_id="during-drain")
    assert answer["type"] == "move_ok", answer
    await o.seen(answer["version"])
    async with httpx.AsyncClient() as http:
        assert (await http.get(f"{server.url}/api/rooms", timeout=10)).status_code == 200
    assert not x.done and not o.done and server.alive
    assert await x.wait_closed() == 1012 and await o.wait_closed() == 1012
    assert time.monotonic() - began >= DRAIN - 0.5  # not before the drain period
    assert await asyncio.to_thread(server.process.wait, 60) == 143


async def test_sigusr1_drains_and_serves_on_until_stopped(fleet: Fleet, redis_url: str) -> None:
    # A shorter period than DRAIN: the test waits it out once, and the stop after it only
    # has to come sooner than a whole new period would
    period = 4.0
    server = fleet.launch(
        "--workers", "2", "--drain-period", str(period), "--log-level", "info",
        store_url=redis_url,
    )  # fmt: skip
    await ready(server)
    x, o = await players(server)
    server.process.send_signal(signal.SIGUSR1)
    await eventually(lambda: all_draining(server), "/readyz draining", timeout=DRAIN)
    await asyncio.sleep(period + 1)  # past the drain period: nothing stops by itself
    answer = await x.move(0, 0, move_id="while-draining")
    assert answer["type"] == "move_ok", answer
    await o.seen(answer["version"])
    assert server.alive and await all_draining(server)
    assert "SIGUSR1: every worker drains" in server.log
    began = time.monotonic()
    server.process.send_signal(signal.SIGTERM)  # the drain already lasted its period
    assert await x.wait_closed() == 1012
    assert time.monotonic() - began < period  # not a new period from the SIGTERM
    assert await asyncio.to_thread(server.process.wait, 60) == 143


async def test_ctrl_c_does_not_drain(fleet: Fleet, redis_url: str) -> None:
    server = fleet.launch("--drain-period", "60", store_url=redis_url)
    await ready(server)
    x, _ = await players(server)
    server.process.send_signal(signal.SIGINT)
    assert await x.wait_closed() == 1012  # at once: well within the client's bound
    assert await asyncio.to_thread(server.process.wait, 60) == 130


async def test_sigterm_to_every_process_keeps_the_drain(fleet: Fleet, redis_url: str) -> None:
    """As systemd's KillMode=control-group: SIGTERM to the supervisor and to each worker
    at once (each worker then gets the supervisor's too), and once more later: the drain
    still lasts its period. A SIGINT then cuts it short."""
    server = fleet.launch(
        "--workers", "2", "--drain-period", str(DRAIN), "--log-level", "info",
        store_url=redis_url,
    )  # fmt: skip
    await ready(server)
    # both workers serving (a worker still booting ends at once on SIGTERM)
    await eventually(lambda: server.log.count(" serves, ") >= 2, "both workers serving")
    x, o = await players(server)
    workers = [
        child
        for child in psutil.Process(server.process.pid).children()
        if "spawn_main" in " ".join(child.cmdline())
    ]
    assert len(workers) == 2
    began = time.monotonic()
    for process in [psutil.Process(server.process.pid), *workers]:
        process.send_signal(signal.SIGTERM)
    await eventually(lambda: all_draining(server), "/readyz draining", timeout=DRAIN / 2)
    await asyncio.sleep(3)
    for process in workers:
        process.send_signal(signal.SIGTERM)  # again, later: still the same drain
    await asyncio.sleep(1)
    answer = await x.move(1, 1, move_id="drain-goes-on")
    assert answer["type"] == "move_ok", answer
    await o.seen(answer["version"])
    assert time.monotonic() - began < DRAIN - 2  # (the host was not too slow to tell)
    server.process.send_signal(signal.SIGINT)  # cut it short
    assert await x.wait_closed() == 1012
    assert time.monotonic() - began < DRAIN
    assert await asyncio.to_thread(server.process.wait, 60) == 143  # stopped by SIGTERM
