"""One measured open-loop window on a running deployment, its parts counted apart.

The servers' CPU (HAProxy's left out), HAProxy's, and Redis's (``INFO cpu`` summed over
every node, so a Cluster's shards add up) over exactly the window; Redis's memory
(``used_memory`` summed over the nodes) before the load and at the window's end, when every
game's room is live; the servers' RSS likewise.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis

from bench.load.parent import run_load
from bench.load.procstat import ProcessTree, load_average
from bench.load.recorder import summarize
from bench.load.redis_probe import cpu_seconds
from bench.load.worker import LoadPlan

__all__ = [
    "ERROR_SHARE",
    "Deployment",
    "best",
    "failed",
    "key_memory",
    "per_move",
    "redis_memory",
    "run_window",
]


@dataclass(frozen=True, slots=True)
class Deployment:
    url: str
    """Where the load goes (HAProxy's address when there is one)."""
    server_pids: tuple[int, ...]
    proxy_pid: int | None
    redis_nodes: tuple[str, ...]
    """``redis://`` URL of every node (one, or each master of a Cluster)."""


def redis_memory(nodes: Sequence[str]) -> int:
    """``used_memory`` summed over ``nodes``."""
    total = 0
    for url in nodes:
        client = redis.Redis.from_url(url, socket_timeout=5)
        try:
            info: dict[str, Any] = client.info("memory")
        finally:
            client.close()
        total += int(info["used_memory"])
    return total


def key_memory(nodes: Sequence[str]) -> dict[str, int]:
    """What the keys take (``MEMORY USAGE`` of each, summed over ``nodes``), and how many
    rooms they hold (``<prefix>:{<room_id>}:room`` hashes): the rooms' own cost, without
    Redis's fixed overhead or its clients' buffers, which ``used_memory`` moves with."""
    total = keys = rooms = 0
    for url in nodes:
        client = redis.Redis.from_url(url, socket_timeout=10)
        try:
            names = list(client.scan_iter(count=1000))
            pipe = client.pipeline(transaction=False)
            for name in names:
                pipe.memory_usage(name, samples=0)
            sizes = pipe.execute()
        finally:
            client.close()
        keys += len(names)
        rooms += sum(1 for name in names if name.endswith(b":room"))
        total += sum(int(size or 0) for size in sizes)
    return {"bytes": total, "keys": keys, "rooms": rooms}


def run_window(
    deployment: Deployment,
    *,
    games: int,
    rate: float,
    spectators: int,
    warmup: float,
    duration: float,
    procs: int,
) -> dict[str, Any]:
    """``games`` games in rematch mode (the rooms stay), each ``rate`` moves a second on an
    open loop, ``spectators`` a game; the window's figures."""
    servers = ProcessTree(deployment.server_pids)
    proxy = ProcessTree(deployment.proxy_pid) if deployment.proxy_pid is not None else None
    nodes = deployment.redis_nodes
    marks: dict[str, float] = {}
    keys: dict[str, dict[str, int]] = {}
    average = load_average()
    memory_before = redis_memory(nodes) if nodes else 0
    rss_before = servers.rss()

    def redis_cpu() -> float:
        return sum(cpu_seconds(url) for url in nodes)

    def on_window(name: str) -> None:
        now = time.monotonic()
        marks[f"wall_{name}"] = now
        marks[f"server_{name}"] = servers.cpu_seconds()
        if proxy is not None:
            marks[f"proxy_{name}"] = proxy.cpu_seconds()
        if nodes:
            marks[f"redis_{name}"] = redis_cpu()
            if name == "end":
                marks["redis_memory_end"] = redis_memory(nodes)
                keys["end"] = key_memory(nodes)
        if name == "end":
            marks["rss_end"] = servers.rss()

    plan = LoadPlan(
        deployment.url,
        games,
        spectators,
        0.0,
        warmup,
        duration,
        {},
        procs=procs,
        next="rematch",
        open_loop=rate,
    )
    result = run_load(plan, on_window=on_window)
    wall = marks["wall_end"] - marks["wall_start"]

    def spent(part: str) -> float | None:
        if f"{part}_start" not in marks:
            return None
        return marks[f"{part}_end"] - marks[f"{part}_start"]

    moves = result["moves"]
    errors = {kind: n for kind, n in result["errors"].items() if n}
    return {
        "games": games,
        "rate_per_game": rate,
        "spectators": spectators,
        "offered_moves_per_s": games * rate,
        "moves": moves,
        "moves_per_s": moves / wall if wall else 0.0,
        "wall_s": wall,
        "errors": errors,
        "server_cpu_s": spent("server"),
        "proxy_cpu_s": spent("proxy"),
        "redis_cpu_s": spent("redis"),
        "redis_memory_before": memory_before,
        "redis_memory_end": marks.get("redis_memory_end"),
        "redis_keys_end": keys.get("end"),
        "server_rss_before": rss_before,
        "server_rss_end": marks["rss_end"],
        "connections": games * (2 + spectators),
        "opponent_ms": summarize(result["opponent"]),
        "spectator_ms": summarize(result["spectator"]),
        "generator_cpu_percent": result["cpu_s"] / wall * 100 if wall else 0.0,
        "load_average_before": average,
        "load_average_after": load_average(),
    }


def per_move(window: dict[str, Any], part: str) -> float | None:
    """µs of ``part``'s CPU (server, proxy, redis) per move of the window."""
    spent = window.get(f"{part}_cpu_s")
    if spent is None or not window["moves"]:
        return None
    return float(spent) / int(window["moves"]) * 1e6


ERROR_SHARE = 0.05
"""Errors tolerated in a window, as a share of its connections (on a machine loaded by other
work, a spectator's join now and then times out subscribing); they are reported either
way, and change a CPU figure by about their share."""


def failed(window: dict[str, Any]) -> bool:
    """The window moved nothing, or had more errors than ``ERROR_SHARE`` allows."""
    errors = sum(window["errors"].values())
    connections = window["games"] * (2 + window["spectators"])
    return not window["moves"] or errors > ERROR_SHARE * connections


def best(windows: list[dict[str, Any]]) -> dict[str, Any]:
    """Of several windows of one deployment, the one whose servers spent the least CPU a
    move (the least disturbed by other work on a shared machine, as bench.fanout takes the
    best of its rounds), among those that did not fail; ``rounds`` keeps them all."""
    moved = [w for w in windows if not failed(w)] or windows
    chosen = min(moved, key=lambda w: per_move(w, "server") or float("inf"))
    return {**chosen, "rounds": windows}
