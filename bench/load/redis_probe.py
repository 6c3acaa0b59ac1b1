"""Counting what the server does per move, from the outside: Redis round trips and encodes.

``probe_game`` plays one game (two players, some spectators) and counts only from the moment
everyone joined to the last event, so what remains is the steady state of a move:

- **Redis round trips**: ``MONITOR`` lists every command run, with its client, between the
  probe's own ``ECHO`` markers. Commands inside a Lua script (marked ``lua``) cost no round
  trip, the bus connection (``<prefix>-bus``) only receives, and the presence client
  (``<prefix>-presence``) is counted apart, and so is what no move asks for (``background``):
  a pooled connection's set-up, the tournament director's scan of its index, twice a second
  (rooms.tournaments.director), and what concerns another room than the probe's (keys
  ``<prefix>:{<room>}:…`` of a room no commit of the window touched: an earlier game's
  spectators' guesses, whose split is read 0.2 s after each move, late on a busy host).
  Each command a move needs counts as one round trip: auto-pipelining may join it with
  other moves' commands but never splits it, so the count is an upper bound. (``INFO
  commandstats`` counts script work too, so it serves only whole-run totals.)
- **encodes per event**: every worker's ``GET /api/stats`` before and after; a ``moved`` should
  be encoded once, however many connections receive it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from typing import Any

import redis
import redis.asyncio as aioredis

from .game import play_game
from .http import HttpPool
from .launch import worker_stats
from .recorder import Recorder
from .scripts import Script
from .think import Think

__all__ = ["commandstats", "encodes", "probe_game"]

_START, _END = "tictactoe-bench:start", "tictactoe-bench:end"


def commandstats(url: str) -> dict[str, int]:
    """Calls per command since Redis started (commands inside scripts included)."""
    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        info: dict[str, Any] = client.info("commandstats")
    finally:
        client.close()
    return {name.removeprefix("cmdstat_"): int(stat["calls"]) for name, stat in info.items()}


def cpu_seconds(url: str) -> float:
    """CPU time (user + system) Redis has used since it started, all its threads."""
    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        info: dict[str, Any] = client.info("cpu")
    finally:
        client.close()
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def encodes(url: str, workers: int) -> dict[str, int] | None:
    """Messages encoded so far by type, summed over every worker (None if some never
    answered: a partial sum would mislead)."""
    stats = worker_stats(url, workers)
    if len(stats) < workers:
        return None
    total: Counter[str] = Counter()
    for data in stats.values():
        total.update(data.get("encodes", {}))
    return dict(total)


class _Monitor:
    """MONITOR on its own connection, collecting every command line until stopped."""

    def __init__(self, url: str) -> None:
        self.client = aioredis.Redis.from_url(url, decode_responses=True)
        self.lines: list[dict[str, Any]] = []
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        listening = asyncio.Event()
        self._task = asyncio.create_task(self._collect(listening))
        waiting = asyncio.create_task(listening.wait())
        await asyncio.wait({self._task, waiting}, timeout=10, return_when="FIRST_COMPLETED")
        waiting.cancel()
        if not listening.is_set():
            await self.stop()
            raise RuntimeError("Redis MONITOR did not start")

    async def _collect(self, listening: asyncio.Event) -> None:
        async with self.client.monitor() as monitor:  # sends MONITOR, checks the OK
            listening.set()
            while True:
                line = await monitor.next_command()
                self.lines.append(line)
                if line["command"] == f"ECHO {_END}":
                    return

    async def stop(self) -> None:
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, 10)
            finally:
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
        await self.client.aclose()


def _client_names(url: str) -> dict[str, str]:
    client = redis.Redis.from_url(url, socket_timeout=5, decode_responses=True)
    try:
        return {entry["addr"]: entry.get("name", "") for entry in client.client_list()}
    finally:
        client.close()


_SETUP = frozenset({"hello", "client", "select", "auth"})
"""What a connection sends when the pool opens it (redis-py), once, not per move."""


def _background(name: str, command: str) -> bool:
    """A command no move sends: a connection's set-up, the director's index scan
    (``ZRANGE <prefix>:tournaments 0 -1``, rooms.backends.redis.tournaments) or the
    correspondence deadlines' scan (``ZRANGEBYSCORE <prefix>:{deadlines} ...``,
    rooms.correspondence.scanner)."""
    if name in _SETUP:
        return True
    parts = command.split(" ")
    key = parts[1].strip('"') if len(parts) > 1 else ""
    if name == "zrangebyscore":
        return key.endswith(":{deadlines}")
    return name == "zrange" and key.endswith(":tournaments")


def _window(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines between the probe's ``ECHO`` markers (none without the first)."""
    commands = [line["command"] for line in lines]
    if f"ECHO {_START}" not in commands:
        return []
    start = commands.index(f"ECHO {_START}") + 1
    end = commands.index(f"ECHO {_END}", start) if f"ECHO {_END}" in commands[start:] else None
    return lines[start:end]


def _elsewhere(command: str, probed: set[str]) -> bool:
    """Whether ``command`` concerns a room, not the probe's (none known: never)."""
    room = _room_of(command)
    return bool(probed) and room is not None and room not in probed


def _room_of(command: str) -> str | None:
    """The room a command's first key belongs to (``<prefix>:{<room>}:room``, ``:log`` or
    ``:guess:…``, rooms.backends.redis.keys), or None."""
    parts = command.split(" ")
    first = 3 if parts[0].lower() in ("evalsha", "eval") else 1
    key = parts[first].strip('"') if len(parts) > first else ""
    start, end = key.find(":{"), key.find("}:")
    if start < 0 or end < start:
        return None
    kind = key[end + 2 :]
    return key[start + 2 : end] if kind in ("room", "log") or kind.startswith("guess:") else None


def _round_trips(lines: list[dict[str, Any]], names: dict[str, str]) -> dict[str, Any]:
    window = _window(lines)
    # the probe's room: the one its moves' commits (scripts given the room's keys) touch
    probed = {
        room
        for line in window
        if line["client_type"] != "lua"
        and line["command"].split(" ", 1)[0].lower() == "evalsha"
        and (room := _room_of(line["command"])) is not None
    }
    inside = Counter[str]()
    sent = Counter[str]()
    bus = Counter[str]()
    presence = Counter[str]()
    background = Counter[str]()
    for line in window:
        name = line["command"].split(" ", 1)[0].lower()
        if line["client_type"] == "lua":
            inside[name] += 1
        elif (client := names.get(f"{line['client_address']}:{line['client_port']}", "")).endswith(
            "-bus"
        ):
            bus[name] += 1
        elif client.endswith("-presence"):
            presence[name] += 1
        elif _background(name, line["command"]) or _elsewhere(line["command"], probed):
            background[name] += 1
        else:
            sent[name] += 1
    return {
        "by_command": dict(sent),
        "inside_scripts": dict(inside),
        "bus": dict(bus),
        "presence": dict(presence),
        "background": dict(background),
    }


async def _probe(
    base_url: str,
    redis_url: str | None,
    *,
    workers: int,
    rules: dict[str, Any],
    script: Script,
    spectators: int,
) -> dict[str, Any]:
    recorder = Recorder(0.0, float("inf"))
    http = HttpPool(base_url, size=1)
    monitor = _Monitor(redis_url) if redis_url else None
    marker = aioredis.Redis.from_url(redis_url) if redis_url else None
    before: dict[str, dict[str, int] | None] = {}

    async def ready() -> None:
        before["encodes"] = await asyncio.to_thread(encodes, base_url, workers)
        if monitor is not None and marker is not None:
            await monitor.start()
            await marker.echo(_START)

    async def finished() -> None:
        if marker is not None:
            await marker.echo(_END)
        before["after"] = await asyncio.to_thread(encodes, base_url, workers)

    try:
        await play_game(
            "ws" + base_url.removeprefix("http"),
            http,
            rules,
            script,
            spectators=spectators,
            think=Think(),
            recorder=recorder,
            timeout=30.0,
            ready=ready,
            finished=finished,
        )
    finally:
        await http.close()
        if monitor is not None:
            await monitor.stop()
        if marker is not None:
            await marker.aclose()
    if recorder.errors or recorder.moves != len(script):
        raise RuntimeError(f"the probe game failed: {dict(recorder.errors)}")
    moves = recorder.moves
    result: dict[str, Any] = {"moves": moves, "spectators": spectators}
    first, last = before.get("encodes"), before.get("after")
    if first is not None and last is not None:
        delta = {kind: last.get(kind, 0) - first.get(kind, 0) for kind in last}
        result["encodes"] = {kind: n for kind, n in delta.items() if n}
        result["moved_encodes_per_move"] = delta.get("moved", 0) / moves
    if monitor is not None and redis_url is not None:
        counted = _round_trips(monitor.lines, await asyncio.to_thread(_client_names, redis_url))
        counted["per_move"] = sum(counted["by_command"].values()) / moves
        result["redis"] = counted
    return result


def probe_game(
    base_url: str,
    redis_url: str | None,
    *,
    workers: int,
    rules: dict[str, Any],
    script: Script,
    spectators: int,
) -> dict[str, Any]:
    """Play one game and count round trips (with Redis) and encodes per move (see above)."""
    return asyncio.run(
        _probe(
            base_url, redis_url, workers=workers, rules=rules, script=script, spectators=spectators
        )
    )
