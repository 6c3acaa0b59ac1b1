"""``run_soak``: start (or target) the servers, play, inject the faults, judge, report.

The soak starts a Redis with an AOF and ``servers`` × ``tictactoe serve`` on it (or uses
``targets``), keeps ``games`` games in play at all times (each finished game is followed by
a new one), and after a short warm-up injects the asked faults one at a time in a seeded
random order, ``interval`` seconds apart, each once the system is whole again after the
last. With ``affinity`` the clients reach the servers only through a real HAProxy with the
deployment's room affinity (bench.soak.balancer), which moves a dead server's rooms to the
others and gives a restarted one its share back. When the faults are done (or ``duration``
is up) no new game starts, the games in play finish (bounded by ``game_timeout``), every
room's record is read from the store and each game is judged (bench.soak.check). The
temporary directory (Redis's AOF and log, the servers' and HAProxy's logs) is removed
unless the soak failed or ``keep`` is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bench.load.haproxy import server_name

from .balancer import BalancerNode
from .faults import (
    REDIS_KILL,
    REDIS_PAUSE,
    REDIS_STOP,
    SERVER_KILL,
    SERVER_TERM,
    Injector,
    wait_all_ready,
)
from .game import GameLog, fetch_record, play_game
from .placement import placement
from .processes import RedisNode, ServerNode, SoakError, StartFailed
from .report import build_report
from .tally import Tally, Targets

__all__ = ["SoakOptions", "run_soak"]

WARMUP = 2.0
RECORD_TIMEOUT = 60.0
TARGET_TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class SoakOptions:
    servers: int = 2
    games: int = 20
    spectators: int = 2
    kills: int = 4
    terms: int = 1
    redis_restarts: int = 1
    redis_stops: int = 1
    stop_seconds: float = 3.0
    interval: float = 2.0
    duration: float = 600.0
    game_timeout: float = 90.0
    think: float = 0.02
    seed: int = 1
    targets: tuple[str, ...] = ()
    redis_url: str | None = None
    affinity: bool = False
    """Clients go through a real HAProxy with the deployment's room affinity
    (bench.soak.balancer) instead of straight to a random server."""
    keep: bool = False
    quiet: bool = False

    def asked(self) -> dict[str, int]:
        if self.targets:
            return {REDIS_PAUSE: self.redis_stops}
        return {
            SERVER_KILL: self.kills,
            SERVER_TERM: self.terms,
            REDIS_KILL: self.redis_restarts,
            REDIS_STOP: self.redis_stops,
        }


def _schedule(options: SoakOptions) -> list[str]:
    faults = [kind for kind, count in options.asked().items() for _ in range(count)]
    random.Random(options.seed).shuffle(faults)
    return faults


def _say(options: SoakOptions, text: str) -> None:
    if not options.quiet:
        print(f"tictactoe soak: {text}", file=sys.stderr, flush=True)


async def _soak(
    options: SoakOptions, targets: Targets, injector: Injector
) -> tuple[list[GameLog], Tally, Counter[str], list[str], float]:
    tally = Tally()
    games: list[GameLog] = []
    active: set[GameLog] = set()
    stopping = asyncio.Event()
    numbers = iter(range(1, 10**9))
    in_progress: list[str] = []  # the fault being injected, while it is
    started = time.monotonic()
    deadline = started + options.duration

    async def slot() -> None:
        while not stopping.is_set():
            log = GameLog(next(numbers), faults=set(in_progress))
            games.append(log)
            active.add(log)
            try:
                await play_game(
                    log,
                    targets,
                    tally,
                    spectators=options.spectators,
                    think=options.think,
                    timeout=options.game_timeout,
                )
            finally:
                active.discard(log)

    slots = [asyncio.create_task(slot()) for _ in range(options.games)]
    injected: Counter[str] = Counter()
    fault_errors: list[str] = []
    try:
        await asyncio.sleep(min(WARMUP, options.duration))
        schedule = _schedule(options)
        for index, kind in enumerate(schedule, 1):
            if time.monotonic() >= deadline:
                _say(options, f"--duration is up: {len(schedule) - index + 1} faults left out")
                break
            tally.current = kind
            in_progress.append(kind)
            for log in active:
                log.faults.add(kind)
            _say(
                options,
                f"{time.monotonic() - started:5.0f} s  fault {index}/{len(schedule)}: {kind}  "
                f"({len(games)} games so far)",
            )
            try:
                await asyncio.to_thread(injector.inject, kind)
            except StartFailed as exc:
                fault_errors.append(f"{kind}: {exc}")
                _say(options, f"{kind}: the system did not come back; no more faults: {exc}")
                break
            finally:
                in_progress.clear()
            injected[kind] += 1
            await asyncio.sleep(max(0.0, min(options.interval, deadline - time.monotonic())))
        if not schedule:  # a soak with no faults plays for its duration
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        stopping.set()
        _say(options, f"faults done; finishing {len(active)} games in play")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*slots), options.game_timeout + 30)
    finally:
        stopping.set()
        for task in slots:
            task.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
    for log in games:
        if log.outcome == "running":  # cut off at the end: it did not finish in time either
            log.outcome, log.reason = "stuck", f"still in play at the end, during {log.stage}"
    seconds = time.monotonic() - started
    _say(options, f"reading {len(games)} records from the store")
    await asyncio.to_thread(wait_all_ready, injector.urls)

    async def record(log: GameLog) -> None:
        if log.room_id is not None and log.outcome != "orphaned":
            log.record = await asyncio.wait_for(fetch_record(targets, log.room_id), RECORD_TIMEOUT)

    gate = asyncio.Semaphore(8)

    async def gated(log: GameLog) -> None:
        async with gate:
            try:
                await record(log)
            except TimeoutError:
                log.record = None

    await asyncio.gather(*(gated(log) for log in games))
    return games, tally, injected, fault_errors, seconds


def run_soak(options: SoakOptions) -> dict[str, Any]:
    """Run the soak; its report (``report["ok"]`` is the verdict)."""
    if options.affinity and options.targets:
        raise SoakError("affinity puts HAProxy before servers the soak starts, not --target")
    directory = Path(tempfile.mkdtemp(prefix="tictactoe-soak-"))
    redis_node: RedisNode | None = None
    servers: list[ServerNode] = []
    balancer: BalancerNode | None = None
    names: dict[str, str] = {}  # a server's URL -> its name in the report
    ok = False
    try:
        if options.targets:
            urls = [url.rstrip("/") for url in options.targets]
            wait_all_ready(urls, TARGET_TIMEOUT)  # a wrong URL fails here, in one line
            injector = Injector(
                [], None, stop_seconds=options.stop_seconds, urls=urls, redis_url=options.redis_url
            )
            targets = Targets(lambda: urls, random.Random(options.seed))
        else:
            redis_node = RedisNode(directory / "redis")
            redis_node.start()
            servers = [
                ServerNode(directory / "servers", redis_node.url) for _ in range(options.servers)
            ]
            for server in servers:
                server.launch()
            for server in servers:
                server.wait_ready()
            names = {server.url: server_name(index) for index, server in enumerate(servers)}
            if options.affinity:
                balancer = BalancerNode(directory / "haproxy", [s.port for s in servers])
                balancer.start()
                front = balancer.url
                targets = Targets(lambda: [front], random.Random(options.seed))
            else:
                targets = Targets(
                    lambda: [s.url for s in servers if s.alive], random.Random(options.seed)
                )
            injector = Injector(
                servers,
                redis_node,
                stop_seconds=options.stop_seconds,
                whole=None if balancer is None else balancer.wait_all_up,
            )
            _say(
                options,
                f"redis {redis_node.url} (AOF), servers "
                + ", ".join(f"{names[s.url]} {s.url}" for s in servers)
                + ("" if balancer is None else f" behind haproxy {balancer.url}")
                + f"; logs in {directory}",
            )
        games, tally, injected, fault_errors, seconds = asyncio.run(
            _soak(options, targets, injector)
        )
        report = build_report(
            games,
            tally,
            injected,
            asked=options.asked(),
            seconds=seconds,
            options=asdict(options),
            fault_errors=fault_errors,
            placement=placement(
                games,
                {names[s.url]: s.launched_at[-1] for s in servers if len(s.launched_at) > 1},
                lambda seen: names.get(seen, seen),
            ),
        )
        ok = bool(report["ok"])
        report["logs"] = str(directory) if (options.keep or not ok) else None
        return report
    finally:
        if balancer is not None:
            balancer.stop()
        for server in servers:
            server.stop()
        if redis_node is not None:
            redis_node.stop()
        if ok and not options.keep:
            shutil.rmtree(directory, ignore_errors=True)
        with contextlib.suppress(OSError):  # a soak that failed before starting anything
            directory.rmdir()
