"""Idle memory per connection: open N joined connections, RSS delta of the server / N.

The connections join as spectators, ``per_room`` to a room (so room state is shared out
and the figure is the connection's own cost: socket, protocol, queue, tasks, feed), and
then send nothing. The rooms are created before the first sample, and the server's RSS
is read after a settling pause both times. RSS only grows when the allocator asks the
kernel for more, so small N gives a noisy figure: use thousands.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from .http import HttpPool
from .procstat import ProcessTree

__all__ = ["idle_memory"]

SETTLE = 1.0  # seconds before each RSS sample
IN_FLIGHT = 100  # handshakes at once


async def _open(url: str, gate: asyncio.Semaphore) -> ClientConnection:
    async with gate:
        ws = await connect(
            url, compression=None, ping_interval=None, close_timeout=2, proxy=None, open_timeout=30
        )
        await ws.send(json.dumps({"type": "join", "as": "spectator", "name": "idle"}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if welcome.get("type") != "welcome":
            await ws.close()
            raise RuntimeError(f"an idle connection could not join: {welcome!r:.200}")
        return ws


async def _close(ws: ClientConnection, gate: asyncio.Semaphore) -> None:
    async with gate:
        with contextlib.suppress(WebSocketException, OSError):
            await ws.close()


async def _measure(
    base_url: str, pid: int | tuple[int, ...], count: int, per_room: int
) -> dict[str, Any]:
    tree = ProcessTree(pid)
    http = HttpPool(base_url, size=4)
    try:
        rooms = [await http.create_room({}) for _ in range(-(-count // per_room))]
    finally:
        await http.close()
    ws_base = "ws" + base_url.removeprefix("http")
    urls = [f"{ws_base}/ws/{rooms[i // per_room]}" for i in range(count)]
    gate = asyncio.Semaphore(IN_FLIGHT)
    await asyncio.sleep(SETTLE)
    before = tree.rss()
    opened = await asyncio.gather(*(_open(url, gate) for url in urls), return_exceptions=True)
    connections = [ws for ws in opened if isinstance(ws, ClientConnection)]
    try:
        failed = [exc for exc in opened if isinstance(exc, BaseException)]
        if failed:
            raise RuntimeError(f"{len(failed)} of {count} idle connections failed: {failed[0]!r}")
        await asyncio.sleep(SETTLE)
        after = tree.rss()
    finally:
        await asyncio.gather(*(_close(ws, gate) for ws in connections))
    return {
        "connections": count,
        "per_room": per_room,
        "rss_before_bytes": before,
        "rss_after_bytes": after,
        "bytes_per_connection": (after - before) / count,
    }


def idle_memory(
    base_url: str, pid: int | tuple[int, ...], count: int, *, per_room: int = 10
) -> dict[str, Any]:
    """Open ``count`` idle spectator connections to the server (process tree ``pid``, or
    several trees: HAProxy and the servers behind it)."""
    if count < 1 or per_room < 1:
        raise ValueError("count and per_room must be at least 1")
    return asyncio.run(_measure(base_url, pid, count, per_room))
