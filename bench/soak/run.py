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

Here the deployment is started and stopped and the play judged; what is asked and how long
it should take is bench.soak.options, the play while the faults are injected bench.soak.play.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.load.haproxy import server_name

from .balancer import BalancerNode
from .cluster import SoakCluster
from .faults import Injector, wait_all_ready
from .logs import LogScan, scan_logs
from .network import Network
from .options import SoakOptions, estimate
from .placement import placement
from .play import play_soak, say
from .processes import RESTART_LIMIT, RedisNode, ServerNode, SoakError
from .report import build_report
from .tally import Targets

__all__ = ["run_soak"]

TARGET_TIMEOUT = 10.0


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
    say(options, text)


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
            say(
                options,
                ("redis cluster of three shards with a replica each" if cluster else "redis ")
                + f"{store_url} (AOF), servers "
                + ", ".join(f"{names[s.url]} {s.url}" for s in servers)
                + ("" if balancer is None else f" behind haproxy {balancer.url}")
                + ("" if network is None else ", through fault proxies")
                + f"; logs in {directory}",
            )
        _announce(options, servers)
        played = asyncio.run(play_soak(options, targets, injector, store_url))
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
