"""``tictactoe bench``: run the load on the server and on the relay, config by config.

For each configuration (memory store with one worker, Redis with one, Redis with two, two
single-process servers on Redis behind HAProxy with room affinity) the bench starts the
server and the bare relay in the same shape side by side, and loads
one at a time in turns: ``rounds`` windows each, server, relay, server, relay..., so that
other work on a shared machine weighs on both alike and each server figure comes with its
ratio to the stack's limit measured under the same conditions. Then it counts what one
steady-state game costs (``redis_probe``) and, when asked, idle memory per connection (on
fresh processes) and the cost of a spectator. A private redis-server is started when a
configuration needs one and no ``redis_url`` was given. Or it drives a running server at
``url`` (resources are sampled only when ``server_pid`` is given). Every step is bounded
and stops by itself."""

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
from .launch import CONFIGS, Config, Launched, RedisProcess, launch
from .measure import Target, record, sample
from .procstat import load_average
from .redis_probe import probe_game
from .report import (
    OpenLoop,
    compare,
    crowd_line,
    generator_line,
    open_loop_line,
    plain_line,
    proxy_line,
    table,
)
from .scripts import make_scripts
from .think import SPREAD
from .worker import LoadPlan

__all__ = ["BenchOptions", "run_bench", "write_report"]


@dataclass(frozen=True, slots=True)
class BenchOptions:
    configs: tuple[str, ...] = ("memory", "redis", "redis2")
    games: int = 100
    spectators: int = 1
    think: float = 0.0
    think_spread: float = SPREAD
    """Think times are drawn from ``think × [1 − spread, 1 + spread]`` (bench.load.think)."""
    next: str = "room"
    """After a game: a new room (``"room"``) or a rematch in the same one (``"rematch"``)."""
    duration: float = 10.0
    """Measured seconds of each window (there are ``rounds`` windows per target)."""
    warmup: float = 2.0
    rounds: int = 1
    procs: int = 1
    seed: int = 1
    rules: dict[str, Any] = field(default_factory=dict)
    baseline: bool = True
    probe: bool = True
    idle: int = 0
    """Idle connections to open per configuration and target (0: skip)."""
    spectator_cost: int = 0
    """Also run with 0 and with this many spectators per game (0: skip)."""
    players_apart: bool = False
    """Crowd mode: the players in a load process of their own (``LoadPlan.players_apart``)."""
    rematch_think: float = 0.0
    """Rematch mode: the players' wait before each vote (``LoadPlan.rematch_think``)."""
    url: str | None = None
    server_pid: int | None = None
    redis_url: str | None = None
    plain: bool = False
    """Also load the plain Starlette server (bench.load.plain) in each configuration."""
    quiet: bool = False
    fastpath: bool = True
    """False: the servers the bench starts run with ``--no-fastpath`` (the relay as ever)."""
    open_loop: float | None = None
    """Moves a second in every game, due on a clock whatever the answers (bench.load.schedule);
    None: closed loop (each move after the opponent's, and the think time)."""


def _say(options: BenchOptions, text: str) -> None:
    if not options.quiet:
        print(text, file=sys.stderr, flush=True)


@contextlib.contextmanager
def _redis(options: BenchOptions) -> Iterator[str | None]:
    needs = options.url is None and any(CONFIGS[c].store == "redis" for c in options.configs)
    if options.redis_url is not None or not needs:
        yield options.redis_url
        return
    with RedisProcess() as private:
        yield private.url


def _plan(options: BenchOptions, url: str, spectators: int) -> LoadPlan:
    return LoadPlan(
        url,
        options.games,
        spectators,
        options.think,
        options.warmup,
        options.duration,
        options.rules,
        options.seed,
        options.procs,
        next=options.next,
        think_spread=options.think_spread,
        players_apart=options.players_apart,
        rematch_think=options.rematch_think,
        open_loop=options.open_loop,
    )


def _interleaved(
    options: BenchOptions, targets: list[Target], spectators: int
) -> dict[str, dict[str, Any]]:
    """``rounds`` windows per target, taking turns (server, relay, server, relay, ...), so
    that other work on the machine weighs on both alike; a record per target kind."""
    windows: dict[str, list[dict[str, Any]]] = {t.kind: [] for t in targets}
    for index in range(options.rounds):
        for target in targets:
            label = (
                f"{target.config:>7} {target.kind:<6} S={spectators} {index + 1}/{options.rounds}"
            )
            plan = _plan(options, target.url, spectators)
            windows[target.kind].append(sample(target, plan, label=label, quiet=options.quiet))
    loop = None if options.open_loop is None else OpenLoop(options.games, options.open_loop)
    return {
        t.kind: record(
            t, windows[t.kind], duration=options.duration, spectators=spectators, open_loop=loop
        )
        for t in targets
    }


def _config_runs(
    options: BenchOptions, config: Config, redis_url: str | None
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Everything about one configuration: (load record by target, side measurements by
    target). The server and the relay run side by side; only one is loaded at a time."""
    store_url = redis_url if config.store == "redis" else None
    kinds = ["server", "relay"] if options.baseline else ["server"]
    if options.plain:
        kinds.append("plain")
    side: dict[str, dict[str, Any]] = {kind: {} for kind in kinds}
    _say(
        options,
        f"starting {' and '.join(kinds)} ({config.name}: {config.store}, "
        f"{config.workers} worker{'s' * (config.workers > 1)}"
        f"{'' if options.fastpath else ', server with --no-fastpath'})",
    )
    launched: list[Launched] = []
    try:
        for kind in kinds:
            launched.append(launch(kind, config, store_url, fastpath=options.fastpath))
        targets = [
            Target(kind, config.name, run.url, config.processes, run.pids, store_url, run.proxy_pid)
            for kind, run in zip(kinds, launched, strict=True)
        ]
        records = _interleaved(options, targets, options.spectators)
        if options.spectator_cost:
            runs = [_interleaved(options, targets, s) for s in (0, options.spectator_cost)]
            for kind in kinds:
                side[kind]["spectator_cost"] = _spectator_cost(
                    [runs[0][kind], runs[1][kind]], options.spectator_cost
                )
        if options.probe:
            script = make_scripts(options.rules, 1, options.seed)[0]
            side["server"]["probe"] = probe_game(
                launched[0].url,
                store_url,
                workers=config.processes,
                rules=options.rules,
                script=script,
                spectators=max(options.spectators, 3),
            )
            if config.processes > 1:
                # the players alone, where a balancer or the kernel may put them on one
                # process: local first, such a room's moves need no pub/sub at all (with
                # affinity always; with two workers when both land on one)
                side["server"]["probe_players_only"] = probe_game(
                    launched[0].url,
                    store_url,
                    workers=config.processes,
                    rules=options.rules,
                    script=script,
                    spectators=0,
                )
    finally:
        for run in launched:
            run.stop()
    if options.idle:
        for kind in kinds:
            # a server that never saw the load
            fresh = launch(kind, config, store_url, fastpath=options.fastpath)
            try:
                side[kind]["idle"] = idle_memory(fresh.url, fresh.pids, options.idle)
            finally:
                fresh.stop()
    return records, side


def _spectator_cost(runs: list[dict[str, Any]], spectators: int) -> dict[str, Any] | None:
    cpu = [(run.get("server") or {}).get("cpu_us_per_move") for run in runs]
    if cpu[0] is None or cpu[1] is None:
        return None
    return {
        "spectators": spectators,
        "cpu_us_per_move_without": cpu[0],
        "cpu_us_per_move_with": cpu[1],
        "cpu_us_per_spectator_per_move": (cpu[1] - cpu[0]) / spectators,
        "runs": runs,
    }


def run_bench(options: BenchOptions) -> dict[str, Any]:
    """Run everything ``options`` asks for; the report (also what ``--json`` writes)."""
    report: dict[str, Any] = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {
            "python": platform.python_version(),
            "cpus": _cpus(),
            "load_average": load_average(),
        },
        "options": asdict(options),
        "runs": [],
        "comparisons": [],
        "plain": [],
        "configs": {},
    }
    if options.url is not None:
        pids = () if options.server_pid is None else (options.server_pid,)
        target = Target("server", "url", options.url.rstrip("/"), 1, pids, options.redis_url)
        report["runs"].append(_interleaved(options, [target], options.spectators)["server"])
        return report
    with _redis(options) as redis_url:
        for name in options.configs:
            records, side = _config_runs(options, CONFIGS[name], redis_url)
            report["runs"].extend(records.values())
            if "relay" in records:
                report["comparisons"].append(compare(records["server"], records["relay"]))
            if "plain" in records:
                report["plain"].append(compare(records["server"], records["plain"]))
            report["configs"][name] = side
    return report


def _cpus() -> int:
    return os.cpu_count() or 1


def write_report(report: dict[str, Any], path: Path | None) -> None:
    """Print the table (and side measurements) on stdout; the JSON to ``path`` if given."""
    print(table(report["runs"], report["comparisons"]))
    for ratios in report.get("plain", []):
        print(plain_line(ratios))
    for name, details in report["configs"].items():
        for target, side in details.items():
            for key in ("probe", "probe_players_only", "idle", "spectator_cost"):
                if side.get(key) is not None:
                    shown = {k: v for k, v in side[key].items() if k != "runs"}
                    print(f"{name} {target} {key}: {json.dumps(shown)}")
    for run in report["runs"]:
        if run.get("crowd"):
            print(crowd_line(run))
        for line in (open_loop_line(run), proxy_line(run), generator_line(run)):
            if line is not None:
                print(line)
    if path is not None:
        path.write_text(json.dumps(report, indent=2) + "\n")
