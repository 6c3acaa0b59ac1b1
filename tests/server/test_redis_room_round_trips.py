"""Redis round trips of a room's lifecycle on two workers, counted with MONITOR: what the
load benchmark's new room per game costs besides its moves.

Per step, the commands each worker's clients send (commands run inside a script are not
round trips): the store's client (auto-pipelined: a command is one command on the wire,
and a batch at most one round trip for all of its commands), the bus connection
(``<prefix>-bus``) and the presence registry's client (``<prefix>-presence``). On one Redis
the worker's index of rooms changes inside the commits (rooms.backends.index), so a join
or a departure sends nothing on the presence client; a new unlisted room is one script
that also reads the dataset's epoch.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import redis.asyncio as aioredis

from tests.support.live_server import LiveServer
from tests.support.waiting import eventually

pytestmark = pytest.mark.redis

PROBE = "round-trip-probe"
SETTLE = 0.3
"""Seconds for a straggling command to show up before a window closes: the window proves
that nothing more is sent, and this bounds how long it looks."""


class Monitor:
    """MONITOR on its own connection; ``window`` counts, per client, the round-trip
    commands sent between two ECHO markers of the probe's own client."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.lines: list[dict[str, Any]] = []
        self.probe = aioredis.Redis.from_url(url, decode_responses=True, client_name=PROBE)
        self._client = aioredis.Redis.from_url(url, decode_responses=True)
        self._task: asyncio.Task[None] | None = None
        self._marks = 0

    async def __aenter__(self) -> Monitor:
        listening = asyncio.Event()
        self._task = asyncio.create_task(self._collect(listening))
        await asyncio.wait_for(listening.wait(), 10)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        await self._client.aclose()
        await self.probe.aclose()

    async def _collect(self, listening: asyncio.Event) -> None:
        async with self._client.monitor() as monitor:
            listening.set()
            while True:
                self.lines.append(await monitor.next_command())

    async def published(self, step: Callable[[], Any]) -> int:
        """Run ``step`` between two markers: the PUBLISHes scripts ran meanwhile."""
        self._marks += 1
        start, end = f"ECHO start-{self._marks}", f"ECHO end-{self._marks}"
        await self.probe.echo(start.split(" ", 1)[1])
        await step()
        await asyncio.sleep(SETTLE)
        await self.probe.echo(end.split(" ", 1)[1])
        await eventually(
            lambda: any(line["command"] == end for line in self.lines), f"MONITOR shows {end}"
        )
        inside, count = False, 0
        for line in self.lines:
            if line["command"] in (start, end):
                inside = line["command"] == start
            elif inside and line["client_type"] == "lua":
                count += line["command"].split(" ", 1)[0].upper() == "PUBLISH"
        return count

    async def window(self, step: Callable[[], Any]) -> dict[str, Counter[str]]:
        """Run ``step`` (awaited) between two markers: {client kind: commands by name}."""
        self._marks += 1
        start, end = f"ECHO start-{self._marks}", f"ECHO end-{self._marks}"
        await self.probe.echo(start.split(" ", 1)[1])
        await step()
        await asyncio.sleep(SETTLE)  # nothing more is sent (bounded): see SETTLE
        await self.probe.echo(end.split(" ", 1)[1])
        await eventually(
            lambda: any(line["command"] == end for line in self.lines), f"MONITOR shows {end}"
        )
        names = {entry["addr"]: entry.get("name", "") for entry in await self.probe.client_list()}
        counted: dict[str, Counter[str]] = {
            "store": Counter(),
            "bus": Counter(),
            "presence": Counter(),
        }
        inside = False
        for line in self.lines:
            if line["command"] in (start, end):
                inside = line["command"] == start
                continue
            if not inside or line["client_type"] == "lua":
                continue
            name = names.get(f"{line['client_address']}:{line['client_port']}", "")
            command = line["command"].split(" ", 1)[0].upper()
            if name == PROBE or command == "PING":  # the probe's and the bus's health
                continue
            if command == "ZRANGE" and line["command"].split(" ")[1] == "ttt:tournaments":
                continue  # the tournament director's scan (twice a second), not a room's step
            kind = (
                "bus"
                if name.endswith("-bus")
                else "presence"
                if name.endswith("-presence")
                else "store"
            )
            counted[kind][command] += 1
        return counted


@pytest.fixture
async def monitor(redis_url: str) -> AsyncIterator[Monitor]:
    async with Monitor(redis_url) as opened:
        yield opened


async def version_of(monitor: Monitor, room_id: str, wanted: int) -> None:
    """Wait (read by the probe's own client) until the room is at ``wanted``."""

    async def reached() -> bool:
        return bool(await monitor.probe.hget(f"ttt:{{{room_id}}}:room", "v") == str(wanted))

    await eventually(reached, f"room {room_id} at version {wanted}")


async def test_a_rooms_lifecycle_on_two_workers_costs_one_store_command_per_step(
    redis_url: str,
    make_server: Callable[..., LiveServer],
    connect: Callable[..., Any],
    monitor: Monitor,
) -> None:
    # Heartbeats, sweeps and deadline scans far apart, so none lands in a window.
    a, b = (
        make_server(store_url=redis_url, lease_ttl=600.0, sweep_interval=600.0, deadline_scan=600.0)
        for _ in range(2)
    )
    warm = await a.create_room()  # Redis learns the scripts (NOSCRIPT, then SCRIPT LOAD)
    for worker in (a, b):
        client = await connect(worker, warm)
        await client.join("spectator")
        await client.close()
    await unsubscribed(monitor, warm)  # the warm room's channels linger (rooms.backends.redis.bus)
    room_id = ""

    async def create() -> None:
        nonlocal room_id
        room_id = await a.create_room()

    assert await monitor.window(create) == {
        "store": Counter({"EVALSHA": 1}),
        "bus": Counter(),
        "presence": Counter(),
    }, "a new unlisted room: one script, the epoch read inside it"
    x, o, watcher = (
        await connect(a, room_id),
        await connect(b, room_id),
        await connect(a, room_id),
    )
    joins = [(x, "player"), (o, "player"), (watcher, "spectator")]
    seen = []
    for client, role in joins:
        seen.append(await monitor.window(functools.partial(client.join, role)))
    assert seen == [
        # X on the worker that created the room: its copy is current, the commit indexes
        {"store": Counter({"EVALSHA": 1}), "bus": Counter({"SUBSCRIBE": 1}), "presence": Counter()},
        # O on the other worker: it loads the room first
        {
            "store": Counter({"HMGET": 1, "EVALSHA": 1}),
            "bus": Counter({"SUBSCRIBE": 1}),
            "presence": Counter(),
        },
        # the spectator where X is: the channel is there already
        {"store": Counter({"EVALSHA": 1}), "bus": Counter(), "presence": Counter()},
    ]
    for worker in (a, b):  # indexed by the commits
        assert await monitor.probe.smembers(index_of(worker)) == {room_id}
    await o.seen(watcher.version)
    await x.seen(watcher.version)
    left = []
    version = watcher.version
    for client in (x, o, watcher):
        version += 1

        async def leave(c: Any = client, v: int = version) -> None:
            await c.close()
            await version_of(monitor, room_id, v)

        left.append(await monitor.window(leave))
    assert left == [
        # X leaves; the spectator still holds the room on that worker
        {"store": Counter({"EVALSHA": 1}), "bus": Counter(), "presence": Counter()},
        # O, the last on its worker: the commit unindexes the room; the channel lingers
        {"store": Counter({"EVALSHA": 1}), "bus": Counter(), "presence": Counter()},
        # the spectator, the last on the other worker: the same
        {"store": Counter({"EVALSHA": 1}), "bus": Counter(), "presence": Counter()},
    ]
    for worker in (a, b):  # unindexed by the last departures' commits
        assert await monitor.probe.smembers(index_of(worker)) == set()
    # A moment later each worker unsubscribes its unused channels, in one command.
    assert await monitor.window(lambda: unsubscribed(monitor, room_id)) == {
        "store": Counter(),
        "bus": Counter({"UNSUBSCRIBE": 2}),
        "presence": Counter(),
    }


async def play(x: Any, o: Any, watcher: Any, cells: list[tuple[int, int]]) -> None:
    """X and O take ``cells`` in turn, each move seen by the mover's opponent and the watcher."""
    for number, (row, col) in enumerate(cells):
        mover, other = (x, o) if number % 2 == 0 else (o, x)
        answer = await mover.move(row, col)
        assert answer["type"] == "move_ok", answer
        await other.seen(answer["version"])
        await watcher.seen(answer["version"])


async def test_a_room_on_one_worker_publishes_nothing_and_a_spread_one_each_commit(
    redis_url: str,
    make_server: Callable[..., LiveServer],
    connect: Callable[..., Any],
    monitor: Monitor,
) -> None:
    """Local first (rooms.service): the bus carries a commit only for another worker."""
    a, b = (
        make_server(store_url=redis_url, lease_ttl=600.0, sweep_interval=600.0, deadline_scan=600.0)
        for _ in range(2)
    )
    alone = await a.create_room()
    x, o, watcher = [await connect(a, alone) for _ in range(3)]
    for client, role in ((x, "player"), (o, "player"), (watcher, "spectator")):
        await client.join(role)
    moves = [(0, 0), (1, 1), (0, 1), (2, 2)]
    assert await monitor.published(lambda: play(x, o, watcher, moves)) == 0
    spread = await a.create_room()
    x, o, watcher = [await connect(server, spread) for server in (a, b, b)]
    for client, role in ((x, "player"), (o, "player"), (watcher, "spectator")):
        await client.join(role)
    # X, on the other worker, hears of O's and the watcher's joins through the bus: its first
    # move waits for them (on a busy machine they may land after its version was read)
    await x.seen(watcher.version)
    assert await monitor.published(lambda: play(x, o, watcher, moves)) == len(moves)


async def unsubscribed(monitor: Monitor, room_id: str) -> None:
    """Wait until no worker is subscribed to the room's channel any more."""
    channel = f"ttt:{{{room_id}}}:ch"

    async def nobody() -> bool:
        return bool(dict(await monitor.probe.pubsub_numsub(channel))[channel] == 0)

    await eventually(nobody, f"room {room_id}'s channel unsubscribed")


def index_of(server: LiveServer) -> str:
    """The key of the worker's index of rooms (rooms.backends.redis.presence)."""
    return f"ttt:{{w:{server.app.state.tictactoe.presence.worker}}}:rooms"
