"""``tictactoe bench``: run the load on the server and on the relay, config by config.

For each configuration (memory store with one worker, Redis with one, Redis with two)
the bench starts the server, runs the load, counts what one steady-state game costs
(``redis_probe``), optionally measures idle memory per connection and the cost of a
spectator, stops it; then does the same with the bare relay in the same shape, so each
server figure comes with its ratio to the stack's limit measured minutes apart on the
same machine. A private redis-server is started when a configuration needs one and no
``redis_url`` was given. Or it drives a running server at ``url`` (resources are then
sampled only when ``server_pid`` is given). Every step is bounded and stops by itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .idle import idle_memory
from .launch import CONFIGS, Config, RedisProcess, launch
from .procstat import ProcessTree, load_average
from .progress import ProgressBar
from .redis_probe import commandstats, encodes, probe_game
from .report import compare, run_record, table
from .scripts import make_scripts
from .worker import LoadPlan, Progress, run_load

__all__ = ["BenchOptions", "run_bench", "write_report"]


@dataclass(frozen=True, slots=True)
class BenchOptions:
    configs: tuple[str, ...] = ("memory", "redis", "redis2")
    games: int = 100
    spectators: int = 1
    think: float = 0.0
    duration: float = 10.0
    warmup: float = 2.0
    procs: int = 1
    seed: int = 1
    rules: dict[str, Any] = field(default_factory=dict)
    baseline: bool = True
    probe: bool = True
    idle: int = 0
    """Idle connections to open per configuration and target (0: skip)."""
    spectator_cost: int = 0
    """Also run with 0 and with this many spectators per game (0: skip)."""
    url: str | None = None
    server_pid: int | None = None
    redis_url: str | None = None
    quiet: bool = False


def _say(options: BenchOptions, text: str) -> None:
    if not options.quiet:
        print(text, file=sys.stderr, flush=True)


def _measure(
    options: BenchOptions, target: str, config: str, url: str, *, workers: int,
    pid: int | None, redis_url: str | None, spectators: int,
) -> dict[str, Any]:
    """One timed load on a running server or relay; its record (see report.run_record)."""
    plan = LoadPlan(url, options.games, spectators, options.think, options.warmup,
                    options.duration, options.rules, options.seed, options.procs)
    tree = ProcessTree(pid) if pid is not None else None
    marks: dict[str, Any] = {"load_average": load_average()}
    before_encodes = encodes(url, workers) if target == "server" else None

    def on_window(name: str) -> None:
        now = time.monotonic()
        if tree is not None:
            if name == "start":
                tree.mark(now)
            else:
                marks["cpu"] = tree.since_mark(now)
        if redis_url is not None:
            marks[f"redis_{name}"] = commandstats(redis_url)

    label = f"{config:>7} {target:<6}"
    bar = ProgressBar(label, options.warmup + options.duration,
                      enabled=False if options.quiet else None)
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
    server = None
    if tree is not None and "cpu" in marks:
        cpu_s, wall_s = marks["cpu"]
        server = {"cpu_s": cpu_s, "cpu_percent": cpu_s / wall_s * 100,
                  "rss_bytes": tree.rss(), "rss_peak_bytes": tree.rss_peak,
                  "processes": len(tree.processes())}
    extra: dict[str, Any] = {"load_average": marks["load_average"], "spectators": spectators}
    if "redis_start" in marks and "redis_end" in marks and result["moves"]:
        first, last = marks["redis_start"], marks["redis_end"]
        extra["redis_calls_per_move"] = {  # inside scripts included; see redis_probe
            name: round((calls - first.get(name, 0)) / result["moves"], 3)
            for name, calls in last.items() if calls > first.get(name, 0) and name != "info"
        }
    after_encodes = encodes(url, workers) if before_encodes is not None else None
    if before_encodes is not None and after_encodes is not None and result["moves_total"]:
        moved = after_encodes.get("moved", 0) - before_encodes.get("moved", 0)
        extra["moved_encodes_per_move"] = moved / result["moves_total"]
    return run_record(target, config, result, duration=options.duration, server=server,
                      extra=extra)


@contextlib.contextmanager
def _redis(options: BenchOptions) -> Iterator[str | None]:
    needs = options.url is None and any(CONFIGS[c].store == "redis" for c in options.configs)
    if options.redis_url is not None or not needs:
        yield options.redis_url
        return
    with RedisProcess() as private:
        yield private.url


def _config_runs(
    options: BenchOptions, config: Config, target: str, redis_url: str | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Everything about one target in one configuration: (load record, side measurements)."""
    store_url = redis_url if config.store == "redis" else None
    side: dict[str, Any] = {}
    _say(options, f"starting the {target} ({config.name}: {config.store}, "
                  f"{config.workers} worker{'s' * (config.workers > 1)})")
    launched = launch(target, config, store_url)
    try:
        def measure(spectators: int) -> dict[str, Any]:
            return _measure(options, target, config.name, launched.url,
                            workers=config.workers, pid=launched.pid, redis_url=store_url,
                            spectators=spectators)

        record = measure(options.spectators)
        if options.spectator_cost:
            side["spectator_cost"] = [measure(s) for s in (0, options.spectator_cost)]
        if options.probe and target == "server":
            script = make_scripts(options.rules, 1, options.seed)[0]
            side["probe"] = probe_game(
                launched.url, store_url, workers=config.workers, rules=options.rules,
                script=script, spectators=max(options.spectators, 3),
            )
    finally:
        launched.stop()
    if options.idle:
        launched = launch(target, config, store_url)
        try:
            side["idle"] = idle_memory(launched.url, launched.pid, options.idle)
        finally:
            launched.stop()
    return record, side


def _spectator_cost(runs: list[dict[str, Any]], spectators: int) -> dict[str, Any] | None:
    cpu = [(run.get("server") or {}).get("cpu_us_per_move") for run in runs]
    if cpu[0] is None or cpu[1] is None:
        return None
    return {"spectators": spectators, "cpu_us_per_move_without": cpu[0],
            "cpu_us_per_move_with": cpu[1],
            "cpu_us_per_spectator_per_move": (cpu[1] - cpu[0]) / spectators,
            "runs": runs}


def run_bench(options: BenchOptions) -> dict[str, Any]:
    """Run everything ``options`` asks for; the report (also what ``--json`` writes)."""
    report: dict[str, Any] = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"python": platform.python_version(), "cpus": _cpus(),
                    "load_average": load_average()},
        "options": asdict(options),
        "runs": [], "comparisons": [], "configs": {},
    }
    if options.url is not None:
        record = _measure(options, "server", "url", options.url.rstrip("/"), workers=1,
                          pid=options.server_pid, redis_url=options.redis_url,
                          spectators=options.spectators)
        report["runs"].append(record)
        return report
    with _redis(options) as redis_url:
        for name in options.configs:
            config = CONFIGS[name]
            details: dict[str, Any] = {}
            by_target: dict[str, dict[str, Any]] = {}
            for target in ("server", "relay") if options.baseline else ("server",):
                record, side = _config_runs(options, config, target, redis_url)
                report["runs"].append(record)
                by_target[target] = record
                if "spectator_cost" in side:
                    side["spectator_cost"] = _spectator_cost(
                        side["spectator_cost"], options.spectator_cost
                    )
                details[target] = side
            if "relay" in by_target:
                report["comparisons"].append(compare(by_target["server"], by_target["relay"]))
            report["configs"][name] = details
    return report


def _cpus() -> int:
    return os.cpu_count() or 1


def write_report(report: dict[str, Any], path: Path | None) -> None:
    """Print the table (and side measurements) on stdout; the JSON to ``path`` if given."""
    print(table(report["runs"], report["comparisons"]))
    for name, details in report["configs"].items():
        for target, side in details.items():
            for key in ("probe", "idle", "spectator_cost"):
                if side.get(key) is not None:
                    shown = {k: v for k, v in side[key].items() if k != "runs"}
                    print(f"{name} {target} {key}: {json.dumps(shown)}")
    if path is not None:
        path.write_text(json.dumps(report, indent=2) + "\n")

