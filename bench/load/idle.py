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
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import WebSocketException

from client.aio import open_joined

from .http import HttpPool
from .procstat import ProcessTree

__all__ = ["idle_memory"]

SETTLE = 1.0  # seconds before each RSS sample
IN_FLIGHT = 100  # handshakes at once
RETRIES = 5  # of a join refused as unavailable
BASELINE = 5.0  # seconds of the processes' CPU at rest, at most


async def _open(url: str, gate: asyncio.Semaphore) -> ClientConnection:
    """A joined spectator; an ``unavailable`` refusal (the server's loop runs late, as on a
    busy machine) is retried after the ``retry_after`` it names, as a client does."""
    for attempt in range(RETRIES + 1):
        async with gate:
            ws, welcome = await open_joined(
                url,
                {"type": "join", "as": "spectator", "name": "idle"},
                answer_wait=30,
                compression=None,
                ping_interval=None,
                close_timeout=2,
                open_timeout=30,
            )
            if welcome.get("type") == "welcome":
                return ws
            await ws.close()
        if welcome.get("code") != "unavailable" or attempt == RETRIES:
            break
        await asyncio.sleep(float(welcome.get("retry_after") or 1.0))
    raise RuntimeError(f"an idle connection could not join: {welcome!r:.200}")


async def _close(ws: ClientConnection, gate: asyncio.Semaphore) -> None:
    async with gate:
        with contextlib.suppress(WebSocketException, OSError):
            await ws.close()


async def _measure(
    base_url: str,
    pid: int | tuple[int, ...],
    count: int,
    per_room: int,
    *,
    parts: dict[str, int | tuple[int, ...]],
    cpu_window: float,
) -> dict[str, Any]:
    tree = ProcessTree(pid)
    apart = {name: ProcessTree(pids) for name, pids in parts.items()}
    http = HttpPool(base_url, size=4)
    try:
        rooms = [await http.create_room({}) for _ in range(-(-count // per_room))]
    finally:
        await http.close()
    ws_base = "ws" + base_url.removeprefix("http")
    urls = [f"{ws_base}/ws/{rooms[i // per_room]}" for i in range(count)]
    gate = asyncio.Semaphore(IN_FLIGHT)
    await asyncio.sleep(SETTLE)
    trees = {"": tree, **apart}
    rest = await _cpu_rates(trees, min(cpu_window, BASELINE)) if cpu_window else {}
    before = tree.rss()
    parts_before = {name: part.rss() for name, part in apart.items()}
    opened = await asyncio.gather(*(_open(url, gate) for url in urls), return_exceptions=True)
    connections = [ws for ws in opened if isinstance(ws, ClientConnection)]
    try:
        failed = [exc for exc in opened if isinstance(exc, BaseException)]
        if failed:
            raise RuntimeError(f"{len(failed)} of {count} idle connections failed: {failed[0]!r}")
        await asyncio.sleep(SETTLE)
        after = tree.rss()
        parts_after = {name: part.rss() for name, part in apart.items()}
        held = await _cpu_rates(trees, cpu_window) if cpu_window else {}
    finally:
        await asyncio.gather(*(_close(ws, gate) for ws in connections))
    measured: dict[str, Any] = {
        "connections": count,
        "per_room": per_room,
        "rss_before_bytes": before,
        "rss_after_bytes": after,
        "bytes_per_connection": (after - before) / count,
    }

    def cpu(name: str) -> dict[str, float]:
        if not cpu_window:
            return {}
        return {  # CPU µs a second an idle connection costs, over the process at rest
            "cpu_us_per_connection_s": (held[name] - rest[name]) / count * 1e6,
            "cpu_percent_at_rest": rest[name] * 100,
        }

    measured.update(cpu(""))
    if apart:
        measured["parts"] = {
            name: {
                "rss_before_bytes": parts_before[name],
                "rss_after_bytes": parts_after[name],
                "bytes_per_connection": (parts_after[name] - parts_before[name]) / count,
                **cpu(name),
            }
            for name in apart
        }
    return measured


async def _cpu_rates(trees: dict[str, ProcessTree], seconds: float) -> dict[str, float]:
    """CPU seconds a second of each tree over ``seconds``."""
    marks = {name: tree.cpu_seconds() for name, tree in trees.items()}
    await asyncio.sleep(seconds)
    return {name: (tree.cpu_seconds() - marks[name]) / seconds for name, tree in trees.items()}


def idle_memory(
    base_url: str,
    pid: int | tuple[int, ...],
    count: int,
    *,
    per_room: int = 10,
    parts: dict[str, int | tuple[int, ...]] | None = None,
    cpu_window: float = 0.0,
) -> dict[str, Any]:
    """Open ``count`` idle spectator connections to the server (process tree ``pid``, or
    several trees: HAProxy and the servers behind it); ``parts`` names some of those trees
    whose RSS is also reported apart (HAProxy's alone, say). With ``cpu_window`` seconds
    (0: not measured), also the CPU the idle connections cost over that long (take the
    ping interval, 20 s by default, so that every connection is pinged once), against the
    processes' rate at rest before they opened."""
    if count < 1 or per_room < 1:
        raise ValueError("count and per_room must be at least 1")
    return asyncio.run(
        _measure(base_url, pid, count, per_room, parts=parts or {}, cpu_window=cpu_window)
    )
