"""What the application heartbeat costs the server: its CPU with idle connections that ping
every ``--every`` seconds (1.5, as browsers on a quiet line do: docs/protocol.md,
"Heartbeat"), against the same connections silent.

    .venv/bin/python -m bench.heartbeat [--connections 1000] [--seconds 10] [--every 1.5] [--json]

Starts ``tictactoe serve`` (in memory) on a free loopback port and opens ``--connections``
WebSockets from this process, joined as spectators of rooms of 50. Then two windows of
``--seconds`` each: the connections silent, then each sending ``ping`` every ``--every``
seconds (staggered) and reading its ``pong``. The server's process CPU time in each
window gives the cost of the pings and their pongs, and of the heartbeat sweep over the
connections that ping (none is silent long enough to be probed here).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from typing import Any

from websockets.asyncio.client import ClientConnection

from bench.browser import create_room
from bench.load.launch import CONFIGS, launch
from bench.load.procstat import ProcessTree, load_average
from client.aio import open_joined

__all__ = ["main", "run"]

ROOM_SIZE = 50  # spectators a room


async def _open(base: str, count: int) -> list[ClientConnection]:
    ws_base = base.replace("http://", "ws://", 1)
    rooms = [create_room(base) for _ in range(-(-count // ROOM_SIZE))]
    sockets = []
    for index in range(count):
        url = f"{ws_base}/ws/{rooms[index // ROOM_SIZE]}"
        ws, _ = await open_joined(url, {"type": "join", "as": "spectator"}, ping_interval=None)
        sockets.append(ws)
    return sockets


async def _drain(ws: ClientConnection) -> None:
    """Read and drop what the server sends (welcomes, spectator counts, pongs)."""
    async for _ in ws:
        pass


async def _beat(ws: ClientConnection, offset: float, every: float, until: float) -> int:
    """Ping every ``every`` seconds from ``offset`` on until ``until``; the pings sent."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(offset)
    sent = 0
    while loop.time() < until:
        await ws.send(json.dumps({"type": "ping", "id": f"p{sent}"}))
        sent += 1
        await asyncio.sleep(every)
    return sent


async def _measure(
    base: str, pid: int, connections: int, seconds: float, every: float
) -> dict[str, Any]:
    sockets = await _open(base, connections)
    readers = [asyncio.create_task(_drain(ws)) for ws in sockets]
    try:
        await asyncio.sleep(2.0)  # the joins' spectator counts settle
        tree = ProcessTree(pid)
        tree.mark(time.monotonic())
        await asyncio.sleep(seconds)
        quiet_cpu, quiet_wall = tree.since_mark(time.monotonic())
        loop = asyncio.get_running_loop()
        until = loop.time() + seconds
        tree.mark(time.monotonic())
        counts = await asyncio.gather(
            *(_beat(ws, every * i / connections, every, until) for i, ws in enumerate(sockets))
        )
        await asyncio.sleep(0.2)  # the last pongs
        beating_cpu, beating_wall = tree.since_mark(time.monotonic())
    finally:
        for ws in sockets:
            await ws.close()
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    pings = sum(counts)
    extra = beating_cpu / beating_wall - quiet_cpu / quiet_wall  # CPU seconds a second
    return {
        "connections": connections,
        "seconds": seconds,
        "every": every,
        "pings": pings,
        "quiet_cpu_percent": round(100 * quiet_cpu / quiet_wall, 1),
        "beating_cpu_percent": round(100 * beating_cpu / beating_wall, 1),
        "us_per_ping": round(1e6 * extra * beating_wall / pings, 1) if pings else None,
        "cpu_percent_per_1000_connections": round(100 * extra * 1000 / connections, 1),
    }


def run(connections: int, seconds: float, every: float = 1.5) -> dict[str, Any]:
    server = launch("server", CONFIGS["memory"], None)
    try:
        result = asyncio.run(_measure(server.url, server.pid, connections, seconds, every))
    finally:
        server.stop()
    return {
        **result,
        "load_average": load_average(),
        "host": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.heartbeat", description=__doc__)
    parser.add_argument("--connections", type=int, default=1000, help="WebSockets held open")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each window")
    parser.add_argument("--every", type=float, default=1.5, help="seconds between two pings")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.connections < 1 or args.seconds <= 0 or args.every <= 0:
        parser.error("--connections must be at least 1, --seconds and --every above 0")
    result = run(args.connections, args.seconds, args.every)
    if args.json:
        print(json.dumps(result))
        return 0
    print(
        f"heartbeat cost, {result['connections']} connections, {result['seconds']:g} s windows "
        f"({result['host']}; load average {result['load_average'][0]})"
    )
    print(f"  server CPU, silent:       {result['quiet_cpu_percent']:6.1f} %")
    print(f"  server CPU, pinging:      {result['beating_cpu_percent']:6.1f} %")
    print(f"  per ping and its pong:    {result['us_per_ping']} µs")
    print(f"  per 1000 connections:     {result['cpu_percent_per_1000_connections']} % of a core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
