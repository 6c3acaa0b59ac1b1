"""``run_soak``: start (or target) the servers, play, inject the faults, judge, report.

The soak starts a Redis with an AOF and ``servers`` × ``tictactoe serve`` on it (or uses
``targets``), keeps ``games`` games in play at all times (each finished game is followed by
a new one), and after a short warm-up injects every asked fault, one at a time, in a seeded
random order, each once the system is whole again after the last. However long a recovery
takes it is waited for, up to ``restart_limit`` seconds; a fault the system does not
recover from stops the injection, and the run says which and why (``recovery``), and how
many faults were then not injected. Between two faults the games play ``interval``
seconds, or longer so as to spread the faults over ``duration`` when one is set; faults
that need longer than ``duration`` are injected all the same, and the soak says so when it
starts. With ``affinity`` the clients reach the servers only through a real HAProxy with
the deployment's room affinity (bench.soak.balancer). When the faults are done no new game
starts, the games in play finish (bounded by ``game_timeout`` plus the time faults took to
recover), the servers are stopped, every room's record is read from the store and judged
(bench.soak.check), and every server log is scanned (bench.soak.logs). The temporary
directory (Redis's AOF and log, the servers' and HAProxy's logs) is removed unless the soak
failed or ``keep`` is set.
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
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.load.haproxy import server_name

from .balancer import BalancerNode
from .cluster import CLUSTER_FAILOVER, CLUSTER_KILL, NODE_TIMEOUT, SoakCluster
from .faults import (
    REDIS_KILL,
    REDIS_PAUSE,
    REDIS_STOP,
    SERVER_KILL,
    SERVER_TERM,
    Injector,
    wait_all_ready,
)
from .game import GameLog, play_game
from .logs import LogScan, scan_logs
from .network import (
    FROZEN_SECONDS,
    HALF_OPEN,
    NET_LATENCY,
    NET_LOSS,
    PARTITION_MARGIN,
    REDIS_PARTITION,
    Network,
    NetworkPlan,
)
from .placement import placement
from .processes import RESTART_LIMIT, RedisNode, ServerNode, SoakError, StartFailed
from .records import RecordReader
from .report import build_report
from .tally import Tally, Targets

__all__ = ["SoakOptions", "estimate", "run_soak"]

WARMUP = 2.0
RECORD_TIMEOUT = 60.0
TARGET_TIMEOUT = 10.0
PLAY_WITHOUT_FAULTS = 60.0
"""Seconds a soak with no fault to inject plays when no ``duration`` is given."""


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
    duration: float | None = None
    """Seconds to spread the faults over (None: one after the other, ``interval`` apart);
    with no fault, how long to play."""
    restart_limit: float = RESTART_LIMIT
    """Seconds a server or Redis may take to come back (or a SIGTERMed server to exit)."""
    game_timeout: float = 90.0
    think: float = 0.02
    seed: int = 1
    targets: tuple[str, ...] = ()
    redis_url: str | None = None
    affinity: bool = False
    """Clients go through a real HAProxy with the deployment's room affinity
    (bench.soak.balancer) instead of straight to a random server."""
    latencies: int = 0
    losses: int = 0
    partitions: int = 0
    half_opens: int = 0
    """Network faults (bench.soak.network); with any of them, every connection to Redis and
    every client's connection goes through a proxy the soak starts."""
    latency: float = 0.2
    loss: float = 0.05
    net_seconds: float = 5.0
    lease_ttl: float = 15.0
    """The servers' ``--lease-ttl``; a partition from Redis lasts 5 s longer."""
    cluster_failovers: int = 0
    cluster_kills: int = 0
    """With either, the servers run on a Redis Cluster of three shards with a replica each
    (bench.soak.cluster) instead of one Redis."""

    @property
    def on_cluster(self) -> bool:
        return bool(self.cluster_failovers or self.cluster_kills)

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
            NET_LATENCY: self.latencies,
            NET_LOSS: self.losses,
            REDIS_PARTITION: self.partitions,
            HALF_OPEN: self.half_opens,
            CLUSTER_FAILOVER: self.cluster_failovers,
            CLUSTER_KILL: self.cluster_kills,
        }

    def network(self) -> NetworkPlan | None:
        """The proxies' plan, when a network fault is asked."""
        if not (self.latencies or self.losses or self.partitions or self.half_opens):
            return None
        return NetworkPlan(
            latency=self.latency,
            loss=self.loss,
            seconds=self.net_seconds,
            lease_ttl=self.lease_ttl,
            half_open=self.half_opens > 0,
        )


def estimate(options: SoakOptions, server_start: float) -> float:
    """Seconds the asked faults should take here, a server taking ``server_start``
    seconds from launch to ready: each fault's recovery and the play after it."""
    costs = {
        SERVER_KILL: server_start,
        SERVER_TERM: server_start + 1.0,  # the drain's close of its connections
        REDIS_KILL: 2.0,  # Redis reads its AOF; the servers' connections come back
        REDIS_STOP: options.stop_seconds,
        REDIS_PAUSE: options.stop_seconds,
        NET_LATENCY: options.net_seconds,
        NET_LOSS: options.net_seconds,
        REDIS_PARTITION: options.lease_ttl + PARTITION_MARGIN + 2.0,  # and registering again
        HALF_OPEN: FROZEN_SECONDS,
        CLUSTER_FAILOVER: 1.0,
        CLUSTER_KILL: 3 * NODE_TIMEOUT / 1000 + 2.0,  # the election, the node back in sync
    }
    return WARMUP + sum(
        count * (costs[kind] + options.interval) for kind, count in options.asked().items()
    )


@dataclass(slots=True)
class Outage:
    """Seconds the system spent recovering from faults (a game's bound grows by them)."""

    total: float = 0.0
    since: float | None = None

    def __call__(self) -> float:
        return self.total + (0.0 if self.since is None else time.monotonic() - self.since)

    def begin(self) -> None:
        self.since = time.monotonic()

    def end(self) -> float:
        assert self.since is not None
        took = time.monotonic() - self.since
        self.total, self.since = self.total + took, None
        return took


@dataclass(slots=True)
class Played:
    games: list[GameLog]
    tally: Tally
    injected: Counter[str]
    recoveries: dict[str, list[float]]
    not_recovered: list[str]
    seconds: float
    records: str = "store"
    outage: Outage = field(default_factory=Outage)


def _schedule(options: SoakOptions) -> list[str]:
    faults = [kind for kind, count in options.asked().items() for _ in range(count)]
    random.Random(options.seed).shuffle(faults)
    return faults


def _say(options: SoakOptions, text: str) -> None:
    if not options.quiet:
        print(f"tictactoe soak: {text}", file=sys.stderr, flush=True)


def _pause(options: SoakOptions, deadline: float | None, left: int) -> float:
    """Play before the next fault: ``interval``, or an even share of the time left until
    ``deadline`` among the ``left`` faults still to come and the quiet end."""
    if deadline is None:
        return options.interval
    return max(options.interval, (deadline - time.monotonic()) / (left + 1))


async def _soak(
    options: SoakOptions, targets: Targets, injector: Injector, store_url: str | None
) -> Played:
    tally = Tally()
    games: list[GameLog] = []
    active: set[GameLog] = set()
    stopping = asyncio.Event()
    numbers = iter(range(1, 10**9))
    in_progress: list[str] = []  # the fault being injected, while it is
    outage = Outage()
    started = time.monotonic()
    deadline = None if options.duration is None else started + options.duration

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
                    outage=outage,
                )
            finally:
                active.discard(log)

    slots = [asyncio.create_task(slot()) for _ in range(options.games)]
    injected: Counter[str] = Counter()
    recoveries: dict[str, list[float]] = {}
    not_recovered: list[str] = []
    try:
        await asyncio.sleep(WARMUP)
        schedule = _schedule(options)
        for index, kind in enumerate(schedule, 1):
            tally.current = kind
            in_progress.append(kind)
            for log in active:
                log.faults.add(kind)
            _say(
                options,
                f"{time.monotonic() - started:5.0f} s  fault {index}/{len(schedule)}: {kind}  "
                f"({len(games)} games so far)",
            )
            outage.begin()
            try:
                await asyncio.to_thread(injector.inject, kind)
            except StartFailed as exc:
                outage.end()
                not_recovered.append(f"fault {index} ({kind}): {exc}")
                _say(options, f"{kind}: the system did not come back; no more faults: {exc}")
                break
            finally:
                in_progress.clear()
            recoveries.setdefault(kind, []).append(outage.end())
            injected[kind] += 1
            await asyncio.sleep(_pause(options, deadline, len(schedule) - index))
        if deadline is not None and not not_recovered:  # play on to the end of --duration
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        elif not schedule:  # a soak with no faults plays all the same
            await asyncio.sleep(PLAY_WITHOUT_FAULTS)
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
    with contextlib.suppress(StartFailed):  # a server that never came back: read from the rest
        await asyncio.to_thread(wait_all_ready, injector.urls, options.restart_limit)
    gate = asyncio.Semaphore(8)
    async with RecordReader(targets, store_url) as reader:

        async def read(log: GameLog) -> None:
            if log.room_id is None or log.outcome == "orphaned":
                return
            async with gate:
                with contextlib.suppress(TimeoutError):  # unread: judged missing
                    log.record = await asyncio.wait_for(reader.read(log.room_id), RECORD_TIMEOUT)

        await asyncio.gather(*(read(log) for log in games))
    return Played(games, tally, injected, recoveries, not_recovered, seconds, reader.source, outage)


def _announce(options: SoakOptions, servers: list[ServerNode]) -> None:
    """Say up front how long the asked faults should take here (from how long the
    servers took to start) and how that compares with ``duration``."""
    faults = sum(options.asked().values())
    if not faults:
        return
    starts = [s for server in servers for s in server.ready_seconds]
    start = max(starts, default=2.0)
    need = estimate(options, start)
    took = f"a server took {start:.1f} s to start; " if starts else ""
    text = (
        f"{faults} faults need about {need:.0f} s here ({took}each recovery is waited for "
        f"up to {options.restart_limit:g} s)"
    )
    if options.duration is not None and need > options.duration:
        text += (
            f"; that is more than --duration {options.duration:g}: "
            "every fault is injected all the same, the run takes what they need"
        )
    elif options.duration is not None:
        text += f"; spread over --duration {options.duration:g} s"
    _say(options, text)


def run_soak(options: SoakOptions) -> dict[str, Any]:
    """Run the soak; its report (``report["ok"]`` is the verdict, ``report["exit_status"]``
    the first failed check's status)."""
    if options.affinity and options.targets:
        raise SoakError("affinity puts HAProxy before servers the soak starts, not --target")
    directory = Path(tempfile.mkdtemp(prefix="tictactoe-soak-"))
    redis_node: RedisNode | None = None
    servers: list[ServerNode] = []
    balancer: BalancerNode | None = None
    network: Network | None = None
    cluster: SoakCluster | None = None
    names: dict[str, str] = {}  # a server's URL -> its name in the report
    ok = False
    try:
        if options.targets:
            urls = [url.rstrip("/") for url in options.targets]
            wait_all_ready(urls, TARGET_TIMEOUT)  # a wrong URL fails here, in one line
            injector = Injector(
                [],
                None,
                stop_seconds=options.stop_seconds,
                urls=urls,
                redis_url=options.redis_url,
                limit=options.restart_limit,
            )
            targets = Targets(lambda: urls, random.Random(options.seed))
            store_url = options.redis_url
        else:
            plan = options.network()
            first_start = max(options.restart_limit, RESTART_LIMIT)  # the limit is on restarts
            if options.on_cluster:
                if plan is not None or options.redis_restarts or options.redis_stops:
                    raise SoakError(
                        "on a Redis Cluster the soak injects no single-Redis or network fault"
                    )
                cluster = SoakCluster(directory / "cluster")
                cluster.start()
                store_url = cluster.url
            else:
                redis_node = RedisNode(directory / "redis", limit=options.restart_limit)
                redis_node.start(first_start)
                store_url = redis_node.url
                if plan is not None:
                    network = Network(plan, redis_node.port, options.servers, options.seed)
            servers = [
                ServerNode(
                    directory / "servers",
                    store_url if network is None else network.redis_url(index),
                    () if plan is None else plan.server_flags(),
                    limit=options.restart_limit,
                )
                for index in range(options.servers)
            ]
            for server in servers:
                server.launch()
            for server in servers:
                server.wait_ready(first_start)
            names = {server.url: server_name(index) for index, server in enumerate(servers)}
            if options.affinity:
                balancer = BalancerNode(directory / "haproxy", [s.port for s in servers])
                balancer.start()
                (front,) = (
                    [balancer.url]
                    if network is None
                    else network.open_front([balancer.port], options.seed)
                )
                targets = Targets(lambda: [front], random.Random(options.seed))
            else:
                # Clients reach a server by its URL, or by its proxy's with network faults.
                fronts = (
                    [s.url for s in servers]
                    if network is None
                    else network.open_front([s.port for s in servers], options.seed)
                )
                names.update(zip(fronts, [names[s.url] for s in servers], strict=True))
                targets = Targets(
                    lambda: [url for url, s in zip(fronts, servers, strict=True) if s.alive],
                    random.Random(options.seed),
                )
            whole: Callable[[], None] | None = None
            if balancer is not None:
                up = balancer.wait_all_up
                whole = lambda: up(options.restart_limit)  # noqa: E731
            injector = Injector(
                servers,
                redis_node,
                stop_seconds=options.stop_seconds,
                whole=whole,
                limit=options.restart_limit,
                network=network,
                cluster=cluster,
            )
            _say(
                options,
                ("redis cluster of three shards with a replica each" if cluster else "redis ")
                + f"{store_url} (AOF), servers "
                + ", ".join(f"{names[s.url]} {s.url}" for s in servers)
                + ("" if balancer is None else f" behind haproxy {balancer.url}")
                + ("" if network is None else ", through fault proxies")
                + f"; logs in {directory}",
            )
        _announce(options, servers)
        played = asyncio.run(_soak(options, targets, injector, store_url))
    finally:
        if balancer is not None:
            balancer.stop()
        for server in servers:
            server.stop()
        if network is not None:
            network.stop()
        if redis_node is not None:
            redis_node.stop()
        if cluster is not None:
            cluster.stop()
        with contextlib.suppress(OSError):  # a soak that failed before starting anything
            directory.rmdir()
    logs: LogScan | None = None
    if servers:  # scanned once every server stopped: the stops' own lines too
        logs = scan_logs(
            (launch.log, launch.killed) for server in servers for launch in server.launches
        )
    report = build_report(
        played.games,
        played.tally,
        played.injected,
        asked=options.asked(),
        seconds=played.seconds,
        options=asdict(options),
        recoveries=played.recoveries,
        not_recovered=played.not_recovered,
        logs=logs,
        records=played.records,
        placement=placement(
            played.games,
            {names[s.url]: s.launched_at[-1] for s in servers if len(s.launched_at) > 1},
            lambda seen: names.get(seen, seen),
        ),
    )
    report["outage_seconds"] = round(played.outage.total, 1)
    ok = bool(report["ok"])
    report["logs_kept"] = str(directory) if (options.keep or not ok) else None
    if ok and not options.keep:
        shutil.rmtree(directory, ignore_errors=True)
    return report
