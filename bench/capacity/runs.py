"""``measure`` and ``check``: the runs on this machine behind the capacity model.

``measure`` prices the units (bench.capacity.model.Units): open-loop windows (``rounds``
each, taking turns) at the planned shape (rematch mode, two spectators a game) on the
memory store, and on a three-master Redis Cluster (the planned store: one Redis prices a
Cluster's Redis CPU and memory low) with one process (every connection of a room on it:
no pub/sub) and with two single-process servers behind HAProxy (spectators spread, 0.75
pub/sub deliveries a move); then idle connections on fresh processes, one server alone
and HAProxy in front of two.

``check`` runs the deployment scaled down (a real three-master Redis Cluster, two
single-process servers, a real HAProxy) at a fixed offered rate, and holds what it
measures against what the model predicts from a unit-cost file for that load.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import redis

from bench.load.idle import idle_memory
from bench.load.launch import CONFIGS, Launched, launch
from bench.load.procstat import load_average

from .cluster import Cluster
from .model import Load, Units, deliveries_per_move, predict
from .window import Deployment, best, failed, per_move, run_window

__all__ = ["CheckOptions", "MeasureOptions", "check", "measure", "verdicts"]

AFFINITY_PROCESSES = CONFIGS["affinity"].processes
ADMISSION = "TICTACTOE_ADMISSION_LAG"
IDLE_CPU_WINDOW = 20.0
"""Seconds the idle connections' CPU is measured over: the server's ping interval, so
that each is pinged once."""


@dataclass(frozen=True, slots=True)
class MeasureOptions:
    games: int = 300
    rate: float = 0.5
    """Moves a second in each game (open loop)."""
    spectators: int = 2
    warmup: float = 3.0
    duration: float = 10.0
    procs: int = 2
    idle: int = 2000
    rounds: int = 2
    """Windows per deployment, taking turns (memory, Redis, affinity, memory, ...); the
    figures are the least disturbed window's (``window.best``)."""
    """Idle connections for the memory figures."""


@dataclass(frozen=True, slots=True)
class CheckOptions:
    games: int = 600
    rate: float = 0.25
    """The same moves a second as ``measure``'s by default, over twice the rooms and
    connections: the model is held to a load it was not measured at."""
    spectators: int = 2
    warmup: float = 8.0
    duration: float = 10.0
    procs: int = 2
    tolerance: float = 0.5
    """A figure passes when measured ÷ predicted is within [1 / (1 + t), 1 + t]."""


def _deployment(launched: Launched, nodes: tuple[str, ...]) -> Deployment:
    servers = tuple(s.pid for s in launched.behind) if launched.behind else (launched.pid,)
    return Deployment(launched.url, servers, launched.proxy_pid, nodes)


@contextlib.contextmanager
def _launched(config: str, store_url: str | None) -> Iterator[Launched]:
    """The servers of ``config``, never refusing newcomers for loop lag: on a machine
    shared with other work the admission guard (``--admission-lag``) would turn away some
    of the load's joins, and the run would price fewer connections than it planned."""
    before = os.environ.get(ADMISSION)
    os.environ[ADMISSION] = "0"
    try:
        running = launch("server", CONFIGS[config], store_url)
    finally:
        if before is None:
            del os.environ[ADMISSION]
        else:
            os.environ[ADMISSION] = before
    try:
        yield running
    finally:
        running.stop()


def _flush(url: str) -> None:
    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        client.flushall()
    finally:
        client.close()


def _machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "cpus": os.cpu_count() or 1,
        "load_average": load_average(),
    }


def measure(options: MeasureOptions, *, say: Any = print) -> dict[str, Any]:
    """The unit-cost report (its ``units`` feed bench.capacity.model)."""
    report: dict[str, Any] = {
        "measured": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": _machine(),
        "options": asdict(options),
        "windows": {},
    }
    with Cluster(3) as cluster, contextlib.ExitStack() as servers:
        nodes = tuple(cluster.node_urls)
        names = ("memory", "redis", "affinity")
        started = {
            name: servers.enter_context(
                _launched(name, cluster.url if CONFIGS[name].store == "redis" else None)
            )
            for name in names
        }
        windows: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
        for index in range(options.rounds):
            for name in names:
                say(
                    f"measuring {name} ({index + 1}/{options.rounds}): "
                    f"{options.games} games × {options.rate} moves/s"
                )
                store = CONFIGS[name].store == "redis"
                window = run_window(
                    _deployment(started[name], nodes if store else ()),
                    games=options.games,
                    rate=options.rate,
                    spectators=options.spectators,
                    warmup=options.warmup,
                    duration=options.duration,
                    procs=options.procs,
                )
                windows[name].append(window)
                say(_window_line(name, window))
        report["windows"] = {name: best(windows[name]) for name in names}
        servers.close()
        say(f"idle memory: {options.idle} connections to one server, then through HAProxy")
        with _launched("redis", cluster.url) as running:
            report["idle_server"] = idle_memory(
                running.url, running.pid, options.idle, cpu_window=IDLE_CPU_WINDOW
            )
        with _launched("affinity", cluster.url) as running:
            assert running.proxy_pid is not None
            report["idle_proxy"] = idle_memory(
                running.url,
                running.pids,
                options.idle,
                parts={"haproxy": running.proxy_pid},
                cpu_window=IDLE_CPU_WINDOW,
            )
    report["machine"]["load_average_after"] = load_average()
    try:
        report["units"] = asdict(_units(report))
    except RuntimeError as exc:
        report["failure"] = str(exc)  # the windows stay in the report, to be seen
    return report


def _window_line(name: str, window: dict[str, Any]) -> str:
    parts = ", ".join(
        f"{part} {value:.0f} µs"
        for part in ("server", "proxy", "redis")
        if (value := per_move(window, part)) is not None
    )
    return (
        f"  {name}: {window['moves_per_s']:.0f} moves/s, CPU a move: {parts}; "
        f"errors {window['errors'] or 'none'}; load average {window['load_average_before']}"
    )


def _per_room(window: dict[str, Any]) -> float:
    """Redis memory a room, from what the keys take at the window's end (see key_memory)."""
    keys = window.get("redis_keys_end") or {}
    return float(keys["bytes"]) / keys["rooms"] if keys.get("rooms") else 0.0


def _units(report: dict[str, Any]) -> Units:
    one, two = report["windows"]["redis"], report["windows"]["affinity"]
    for name, window in report["windows"].items():
        if failed(window):
            raise RuntimeError(f"the {name} window failed: {window['errors']}, {window['moves']}")
    idle = report["idle_server"]
    server_idle = max(0.0, idle.get("cpu_us_per_connection_s", 0.0))
    proxy_idle = max(
        0.0, report["idle_proxy"]["parts"]["haproxy"].get("cpu_us_per_connection_s", 0.0)
    )

    def moving(window: dict[str, Any], part: str, per_connection: float) -> float:
        """µs of ``part`` a move, less what its connections cost idle over the window."""
        spent = window.get(f"{part}_cpu_s")
        if spent is None or not window["moves"]:
            return 0.0
        held = per_connection * int(window["connections"]) * float(window["wall_s"]) / 1e6
        return max(0.0, (float(spent) - held) / int(window["moves"]) * 1e6)

    spread = deliveries_per_move(AFFINITY_PROCESSES, two["spectators"])
    local = moving(one, "server", server_idle)
    redis_local = moving(one, "redis", 0.0)
    return Units(
        server_local_us_per_move=local,
        server_remote_us_per_delivery=max(
            0.0, (moving(two, "server", server_idle) - local) / spread
        ),
        redis_local_us_per_move=redis_local,
        redis_remote_us_per_delivery=max(0.0, (moving(two, "redis", 0.0) - redis_local) / spread),
        proxy_us_per_move=moving(two, "proxy", proxy_idle),
        redis_bytes_per_room=_per_room(two),
        server_bytes_per_connection=max(0.0, idle["bytes_per_connection"]),
        proxy_bytes_per_connection=max(
            0.0, report["idle_proxy"]["parts"]["haproxy"]["bytes_per_connection"]
        ),
        server_base_bytes=idle["rss_before_bytes"],
        server_us_per_connection_s=server_idle,
        proxy_us_per_connection_s=proxy_idle,
    )


def verdicts(
    measured: dict[str, float], predicted: dict[str, float], tolerance: float
) -> dict[str, dict[str, Any]]:
    """Each figure's measured ÷ predicted and whether it is within ``tolerance``."""
    out: dict[str, dict[str, Any]] = {}
    for name, expected in predicted.items():
        got = measured[name]
        ratio = got / expected if expected else (1.0 if not got else float("inf"))
        out[name] = {
            "measured": got,
            "predicted": expected,
            "ratio": ratio,
            "ok": 1 / (1 + tolerance) <= ratio <= 1 + tolerance,
        }
    return out


def check(units: Units, options: CheckOptions, *, say: Any = print) -> dict[str, Any]:
    """The scaled-down deployment under load, against the model's prediction."""
    report: dict[str, Any] = {
        "checked": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": _machine(),
        "options": asdict(options),
        "units": asdict(units),
    }
    say(
        f"checking: 3-master Redis Cluster, {AFFINITY_PROCESSES} servers behind HAProxy, "
        f"{options.games} games × {options.rate} moves/s"
    )
    with Cluster(3) as cluster, _launched("affinity", cluster.url) as running:
        window = run_window(
            _deployment(running, tuple(cluster.node_urls)),
            games=options.games,
            rate=options.rate,
            spectators=options.spectators,
            warmup=options.warmup,
            duration=options.duration,
            procs=options.procs,
        )
    report["window"] = window
    report["machine"]["load_average_after"] = load_average()
    if failed(window):
        report["verdicts"] = {}
        report["ok"] = False
        report["failure"] = f"the load failed: {window['moves']} moves, errors {window['errors']}"
        return report
    # the model at the rate achieved (the open loop may fall short of the offer)
    achieved = Load(options.games, options.games / window["moves_per_s"], options.spectators)
    expected = predict(units, achieved, AFFINITY_PROCESSES)
    wall = window["wall_s"]
    measured = {
        "server_cpu_percent": window["server_cpu_s"] / wall * 100,
        "proxy_cpu_percent": window["proxy_cpu_s"] / wall * 100,
        "redis_cpu_percent": window["redis_cpu_s"] / wall * 100,
        "redis_bytes": float((window["redis_keys_end"] or {}).get("bytes", 0)),
    }
    predicted = {name: getattr(expected, name) for name in measured}
    report["verdicts"] = verdicts(measured, predicted, options.tolerance)
    report["server_rss_delta_bytes"] = window["server_rss_end"] - window["server_rss_before"]
    report["ok"] = all(v["ok"] for v in report["verdicts"].values())
    return report


def load_units(path: Path) -> Units:
    """The ``units`` of a unit-cost JSON file (bench.capacity.measure's output)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read unit costs from {str(path)!r}: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{str(path)!r} holds no JSON object")
    return Units.from_json(data)
