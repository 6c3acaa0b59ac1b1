"""``GET /metrics`` of ``tictactoe serve --workers 2`` on Redis: whichever worker answers,
the counters are the sums over both (prometheus_client's multiprocess mode), games played
on each worker over real WebSockets; the workers' private directory goes at exit."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from tests.support.scrape import Samples, scrape, value
from tests.support.server_process import Fleet, ServerProcess, create_room
from tests.support.waiting import eventually
from tests.support.ws_client import Client

MOVES = ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2))  # X wins on the top row


async def stats_of_both(serve: ServerProcess) -> dict[int, dict[str, Any]]:
    """Each worker's /api/stats, by pid (asked on new connections until both answered)."""
    seen: dict[int, dict[str, Any]] = {}

    async def both() -> bool:
        async with httpx.AsyncClient() as http:
            stats = (await http.get(f"{serve.url}/api/stats", timeout=10)).json()
        seen[stats["pid"]] = stats
        return len(seen) == 2

    await eventually(both, "both workers answered /api/stats", interval=0.01)
    return seen


async def play_one_game(serve: ServerProcess) -> list[Client]:
    """A room with X, O and a spectator (each its own connection), played to X's win; the
    clients, still connected."""
    room_id = await create_room(serve, {}, public=False)
    clients = [Client(await connect(serve.ws(room_id), proxy=None)) for _ in range(3)]
    x, o, watcher = clients
    for client, role in ((x, "player"), (o, "player"), (watcher, "spectator")):
        assert (await client.join(role))["type"] == "welcome"
    version = watcher.version
    for player, (row, col) in zip((x, o, x, o, x), MOVES, strict=True):
        await player.seen(version)  # the opponent's move arrived: not a stale version
        answer = await player.move(row, col)
        assert answer["type"] == "move_ok", answer
        version = answer["version"]
    return clients


async def test_metrics_are_summed_over_both_workers(redis_url: str, fleet: Fleet) -> None:
    (serve,) = fleet.start(redis_url, 1, "--workers", "2")
    workers = await stats_of_both(serve)
    assert {stats["host"] for stats in workers.values()} == {os.uname().nodename}
    assert len({stats["worker"] for stats in workers.values()}) == 2
    open_clients: list[Client] = []
    try:
        games = 0
        while True:  # until each worker has committed moves of its own
            open_clients += await play_one_game(serve)
            games += 1
            workers = await stats_of_both(serve)
            moves = {pid: s["encodes"].get("move_ok", 0) for pid, s in workers.items()}
            assert sum(moves.values()) == 5 * games
            if all(moves.values()) or games == 12:
                break
        assert all(moves.values()), f"every game's moves went to one worker: {moves}"

        async def summed() -> Samples | None:
            samples = await scrape(serve.url)
            # each worker's counts arrive with its next flush (server.metrics.buffered): the
            # moves may all be in while a join counted on the other worker is not yet
            if (
                value(samples, "tictactoe_messages_received_total", type="move") < 5 * games
                or value(samples, "tictactoe_messages_received_total", type="join") < 3 * games
                or value(samples, "tictactoe_commit_seconds_count") < 8 * games
                or value(samples, "tictactoe_redis_round_trip_seconds_count") < 8 * games
            ):
                return None
            return samples

        for _ in range(6):  # several scrapes: each worker answers some, with the same sums
            samples = await eventually(summed, "the moves counted")
            assert value(samples, "tictactoe_messages_received_total", type="move") == 5 * games
            assert value(samples, "tictactoe_messages_received_total", type="join") == 3 * games
            assert value(samples, "tictactoe_connections", role="player") == 2 * games
            assert value(samples, "tictactoe_connections", role="spectator") == games
            assert value(samples, "tictactoe_commit_seconds_count") >= 8 * games
            assert value(samples, "tictactoe_redis_round_trip_seconds_count") >= 8 * games
            assert value(samples, "tictactoe_rooms_active") >= games
    finally:
        for client in open_clients:
            await client.close()

    async def left() -> bool:
        samples = await scrape(serve.url)
        return value(samples, "tictactoe_connections", role="player") == 0

    await eventually(left, "the connections' gauge back to 0")
    samples = await scrape(serve.url)
    assert value(samples, "tictactoe_closes_total", code="peer") == 3 * games
    assert value(samples, "tictactoe_messages_received_total", type="move") == 5 * games


async def test_the_workers_directory_is_private_and_removed(redis_url: str, fleet: Fleet) -> None:
    (serve,) = fleet.start(redis_url, 1, "--workers", "2")
    workers = await stats_of_both(serve)
    directories = {_multiproc_dir(pid) for pid in workers}
    assert len(directories) == 1
    (directory,) = directories
    assert directory.is_dir() and directory.stat().st_mode & 0o777 == 0o700
    assert serve.stop() == 130, serve.log_tail()  # SIGINT, with two workers as with one
    assert not directory.exists()


async def test_a_killed_workers_connections_leave_the_gauges(redis_url: str, fleet: Fleet) -> None:
    (serve,) = fleet.start(redis_url, 1, "--workers", "2")
    workers = await stats_of_both(serve)
    clients: list[Client] = []
    try:
        for _ in range(12):  # until both workers hold connections (both committed moves)
            clients += await play_one_game(serve)
            workers = await stats_of_both(serve)
            if all(stats["encodes"].get("move_ok", 0) for stats in workers.values()):
                break
        players = [c for c in clients if c.welcome is not None and c.welcome["mark"] is not None]
        samples = await scrape(serve.url)
        assert value(samples, "tictactoe_connections", role="player") == len(players)
        os.kill(min(workers), signal.SIGKILL)  # no shutdown: its gauge files stay behind
        await eventually(lambda: any(c.done for c in players), "the killed worker's players cut")
        assert not all(c.done for c in players)  # the other worker's are still connected

        async def counted() -> bool:
            samples = await scrape(serve.url)
            open_players = sum(not c.done for c in players)
            return value(samples, "tictactoe_connections", role="player") == open_players

        await eventually(counted, "the dead worker's players out of the gauge")
    finally:
        for client in clients:
            if not client.done:
                await client.close()


def _multiproc_dir(pid: int) -> Path:
    """A worker's PROMETHEUS_MULTIPROC_DIR, read from its environment."""
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    (entry,) = [e for e in environ if e.startswith(b"PROMETHEUS_MULTIPROC_DIR=")]
    return Path(entry.split(b"=", 1)[1].decode())
