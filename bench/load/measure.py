"""One measured window on a running server or relay, and windows combined into a record.

A window (``sample``) runs the load once and keeps the raw figures: the load's result,
the server's CPU over exactly the window (behind HAProxy: the servers' and HAProxy's
together, and HAProxy's alone beside it), its RSS, the Redis calls in the window (from
``INFO commandstats``) and the events it encoded. ``record`` adds up several windows of
the same target (the bench interleaves server and relay windows, so that both see the
same machine when other work comes and goes) into the record of report.run_record.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .parent import run_load
from .procstat import ProcessTree, load_average
from .progress import ProgressBar
from .recorder import merge
from .redis_probe import commandstats, cpu_seconds, encodes
from .report import OpenLoop, run_record
from .worker import LoadPlan, Progress

__all__ = ["Target", "record", "sample"]


@dataclass(frozen=True, slots=True)
class Target:
    """What a window loads: ``kind`` is "server" or "relay"; ``pids`` its process trees
    (none: not measured), ``proxy_pid`` the HAProxy among them, if any."""

    kind: str
    config: str
    url: str
    workers: int
    """Server processes in all (each answers ``/api/stats`` for itself)."""
    pids: tuple[int, ...]
    redis_url: str | None
    proxy_pid: int | None = None


def sample(target: Target, plan: LoadPlan, *, label: str, quiet: bool) -> dict[str, Any]:
    """Run ``plan`` once against ``target``; the window's raw figures."""
    tree = ProcessTree(target.pids) if target.pids else None
    proxy = ProcessTree(target.proxy_pid) if target.proxy_pid is not None else None
    marks: dict[str, Any] = {}
    counts_encodes = target.kind == "server"
    before = encodes(target.url, target.workers) if counts_encodes else None
    average = load_average()

    def on_window(name: str) -> None:
        now = time.monotonic()
        for key, measured in (("cpu", tree), ("proxy_cpu", proxy)):
            if measured is not None:
                if name == "start":
                    measured.mark(now)
                else:
                    marks[key] = measured.since_mark(now)
        if target.redis_url is not None:
            marks[f"redis_{name}"] = commandstats(target.redis_url)
            marks[f"redis_cpu_{name}"] = cpu_seconds(target.redis_url)

    bar = ProgressBar(label, plan.warmup + plan.duration, enabled=False if quiet else None)
    last_rss = [0.0]

    def on_tick(progress: Progress) -> None:
        bar.update(progress)
        if tree is not None and progress.elapsed - last_rss[0] >= 1.0:
            last_rss[0] = progress.elapsed
            tree.rss()  # keeps the peak

    try:
        result = run_load(plan, on_tick=on_tick, on_window=on_window)
    finally:
        bar.close()
    window: dict[str, Any] = {
        "result": result,
        "load_average": average,
        "server": None,
        "redis": None,
        "redis_cpu_s": None,
        "moved_encodes": None,
        "proxy_cpu_s": marks["proxy_cpu"][0] if "proxy_cpu" in marks else None,
    }
    if tree is not None and "cpu" in marks:
        window["server"] = {
            "cpu": marks["cpu"],
            "rss": tree.rss(),
            "rss_peak": tree.rss_peak,
            "processes": len(tree.processes()),
        }
    if "redis_start" in marks and "redis_end" in marks:
        first, last = marks["redis_start"], marks["redis_end"]
        window["redis"] = {
            name: calls - first.get(name, 0)
            for name, calls in last.items()
            if calls > first.get(name, 0) and name != "info"
        }
    if "redis_cpu_start" in marks and "redis_cpu_end" in marks:
        window["redis_cpu_s"] = marks["redis_cpu_end"] - marks["redis_cpu_start"]
    after = encodes(target.url, target.workers) if before is not None else None
    if before is not None and after is not None:
        window["moved_encodes"] = after.get("moved", 0) - before.get("moved", 0)
    return window


def record(
    target: Target,
    windows: Sequence[dict[str, Any]],
    *,
    duration: float,
    spectators: int,
    open_loop: OpenLoop | None = None,
) -> dict[str, Any]:
    """The windows of one target as one run record (moves and samples add up); ``open_loop``:
    what an open-loop run offered (None: a closed loop)."""
    result = merge([w["result"] for w in windows], side_by_side=False)
    moves = result["moves"]
    server = None
    if windows and all(w["server"] is not None for w in windows):
        cpu_s = sum(w["server"]["cpu"][0] for w in windows)
        wall_s = sum(w["server"]["cpu"][1] for w in windows)
        server = {
            "cpu_s": cpu_s,
            "cpu_percent": cpu_s / wall_s * 100 if wall_s else 0.0,
            "rss_bytes": windows[-1]["server"]["rss"],
            "rss_peak_bytes": max(w["server"]["rss_peak"] for w in windows),
            "processes": windows[-1]["server"]["processes"],
        }
    extra: dict[str, Any] = {
        "spectators": spectators,
        "rounds": len(windows),
        "load_average": [w["load_average"] for w in windows],
    }
    if moves and all(w["redis"] is not None for w in windows):
        calls: Counter[str] = Counter()
        for window in windows:
            calls.update(window["redis"])
        # INFO commandstats counts the commands run inside scripts too; see redis_probe
        extra["redis_calls_per_move"] = {name: round(n / moves, 3) for name, n in calls.items()}
    if moves and all(w["redis_cpu_s"] is not None for w in windows):
        # the store's share of a move: Redis's own CPU over the same windows
        extra["redis_cpu_us_per_move"] = sum(w["redis_cpu_s"] for w in windows) / moves * 1e6
    if moves and windows and all(w.get("proxy_cpu_s") is not None for w in windows):
        # HAProxy's share, already inside the server's figure: the proxy's price shown
        extra["proxy_cpu_us_per_move"] = sum(w["proxy_cpu_s"] for w in windows) / moves * 1e6
    if result["moves_total"] and all(w["moved_encodes"] is not None for w in windows):
        moved = sum(w["moved_encodes"] for w in windows)
        extra["moved_encodes_per_move"] = moved / result["moves_total"]
    return run_record(
        target.kind,
        target.config,
        result,
        duration=duration * len(windows),
        server=server,
        extra=extra,
        open_loop=open_loop,
    )
