"""``tictactoe soak``: play real games while servers and Redis fail; prove nothing is lost.
This module is its parser: the next paragraph is the help's description, the epilog lists
the exit statuses (the checks across flags: cli.soak.validation; the run: cli.soak.run).

Starts a Redis with an AOF and two or more ``tictactoe serve`` processes on it (or, with
``--target``, uses running servers), keeps G games in play (two players and spectators
each, every client on its own WebSocket to a random server) and injects faults one at a
time: ``kill -9`` of a server and its restart, SIGTERM and restart, ``kill -9`` of Redis and
its restart from the AOF, Redis frozen with SIGSTOP for S seconds; and, through TCP proxies
it starts on loopback, network latency, loss, a server's partition from Redis for longer
than its lease and half-open client connections; or, on a Redis Cluster of three shards
with a replica each, a shard's failover and the kill of its primary. Clients reconnect,
resume with their token and last_version and retry unanswered moves with the same move_id.
Then every acknowledged move must be in the room's stored record exactly once, in the order
it was acknowledged, at the version its move_ok said; every game must have finished, and
no server log may hold a traceback or an ERROR line. Every fault asked is injected, however
long the recoveries take (each bounded by --restart-limit). Prints a table per fault kind
and what was compared (``--json FILE`` writes the report); the exit status names the first
check that failed (below). ``--affinity`` puts the servers
behind a real HAProxy with the deployment's room affinity, and every client goes through
it. ``--storm N`` instead puts N clients on one of two servers, kills it, and times every
client's resume on the other; it exits 1 unless all resumed with a p99 within
``--storm-p99``.
The code is in ``bench/soak``; docs/operations.md, "Soak", shows how to read the table.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .run import run

__all__ = ["register"]


def _statuses() -> str:
    from bench.soak import CHECKS

    rows = [
        "exit status: 0 every check passed; 1 the soak could not run; 2 bad flags; else "
        "the first failed check's:"
    ]
    rows += [f"  {code:>2}  {name}: {about}" for name, code, about in CHECKS]
    return "\n".join(rows)


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 < value <= 86400:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 86400, got {text}")
    return value


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "soak",
        help="play games while servers and Redis are killed; check nothing is lost",
        description=__doc__.split("\n\n")[1].replace("\n", " ").replace("``", "")
        if __doc__
        else None,
        epilog=_statuses(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play = parser.add_argument_group("play")
    play.add_argument("--servers", type=int, default=2, help="servers to start (default 2)")
    play.add_argument(
        "--games", "-G", type=int, default=20, help="games in play at once (default 20)"
    )
    play.add_argument(
        "--spectators", "-S", type=_count, default=2, help="spectators per game (default 2)"
    )
    play.add_argument(
        "--think",
        type=float,
        default=0.02,
        help="seconds a player waits before a move, on average (default 0.02)",
    )
    play.add_argument("--seed", type=int, default=1, help="seed of the fault order (default 1)")
    play.add_argument(
        "--affinity",
        action="store_true",
        help="clients connect only through a real HAProxy with deploy/haproxy.cfg's room "
        "affinity and health checks (a room's players on the server its id hashes to, "
        "spectators spread), which moves a dead server's rooms to the others",
    )
    faults = parser.add_argument_group("faults (one at a time, in a seeded random order)")
    faults.add_argument(
        "--kills", type=_count, default=4, help="kill -9 and restart of a server (default 4)"
    )
    faults.add_argument(
        "--terms", type=_count, default=1, help="SIGTERM and restart of a server (default 1)"
    )
    faults.add_argument(
        "--redis-restarts",
        type=_count,
        default=1,
        help="kill -9 of Redis and its restart from the AOF (default 1)",
    )
    faults.add_argument(
        "--redis-stops",
        type=_count,
        default=1,
        help="Redis frozen (SIGSTOP, then SIGCONT; CLIENT PAUSE with --target) (default 1)",
    )
    faults.add_argument(
        "--stop-seconds",
        type=_seconds,
        default=3.0,
        metavar="S",
        help="how long each Redis freeze lasts (default 3)",
    )
    faults.add_argument(
        "--interval",
        type=float,
        default=2.0,
        help="seconds of play between one fault's recovery and the next (default 2)",
    )
    network = parser.add_argument_group(
        "network faults (through TCP proxies the soak starts on loopback: each server's to "
        "Redis, and the clients' to each server)"
    )
    network.add_argument(
        "--net-latency",
        type=_count,
        default=0,
        metavar="N",
        help="N times, every proxy delays each chunk by --latency seconds each way, for "
        "--net-seconds (default 0)",
    )
    network.add_argument(
        "--net-loss",
        type=_count,
        default=0,
        metavar="N",
        help="N times, every proxy stalls a chunk with probability --loss for 0.2 to 1 s, "
        "holding the stream behind it (a lost segment's retransmission), for --net-seconds "
        "(default 0)",
    )
    network.add_argument(
        "--redis-partitions",
        type=_count,
        default=0,
        metavar="N",
        help="N times, a server (in turn) cut off from Redis for --lease-ttl + 5 s, no "
        "connection closed (default 0)",
    )
    network.add_argument(
        "--half-opens",
        type=_count,
        default=0,
        metavar="N",
        help="N times, a quarter of the clients' connections go silent both ways without a "
        "close until the servers find them dead (servers ping every 2 s then), then flow "
        "again (default 0)",
    )
    network.add_argument(
        "--latency", type=_seconds, default=0.2, help="seconds of --net-latency (default 0.2)"
    )
    network.add_argument(
        "--loss", type=float, default=0.05, help="a chunk's chance to stall (default 0.05)"
    )
    network.add_argument(
        "--net-seconds",
        type=_seconds,
        default=5.0,
        metavar="S",
        help="how long each latency or loss episode lasts (default 5)",
    )
    network.add_argument(
        "--lease-ttl",
        type=_seconds,
        default=15.0,
        metavar="S",
        help="the servers' --lease-ttl with network faults (default 15, the server's)",
    )
    cluster = parser.add_argument_group(
        "Redis Cluster faults (the servers then run on a Redis Cluster of three shards, a "
        "primary and a replica each, instead of one Redis)"
    )
    cluster.add_argument(
        "--cluster-failovers",
        type=_count,
        default=0,
        metavar="N",
        help="N times, CLUSTER FAILOVER on a shard's replica (in turn) (default 0)",
    )
    cluster.add_argument(
        "--cluster-kills",
        type=_count,
        default=0,
        metavar="N",
        help="N times, kill -9 of a shard's primary (in turn): its replica is promoted by "
        "the cluster, the killed node restarts as a replica (default 0)",
    )
    bounds = parser.add_argument_group("bounds")
    bounds.add_argument(
        "--duration",
        type=_seconds,
        default=None,
        help="spread the faults over this many seconds (default: one after another, "
        "--interval apart); faults that need longer are injected all the same, and the soak "
        "says so as it starts; with no fault to inject, play this long (default 60)",
    )
    bounds.add_argument(
        "--restart-limit",
        type=_seconds,
        default=180.0,
        metavar="S",
        help="seconds a restarted server or Redis may take to be ready again, or a "
        "SIGTERMed server to exit (default 180); a fault not recovered from within it "
        "stops the faults and fails the 'recovery' check",
    )
    bounds.add_argument(
        "--game-timeout",
        type=_seconds,
        default=90.0,
        help="a game not finished this many seconds after it started is stuck (default 90)",
    )
    target = parser.add_argument_group("running servers")
    target.add_argument(
        "--target",
        action="append",
        default=[],
        metavar="URL",
        help="a running server to use instead of starting any (http://127.0.0.1:PORT; "
        "repeat for each); only Redis freezes (CLIENT PAUSE, needs --redis-url) can be "
        "injected then",
    )
    target.add_argument(
        "--redis-url", default=None, help="with --target: the servers' Redis, to freeze it"
    )
    storm = parser.add_argument_group("reconnect storm")
    storm.add_argument(
        "--storm",
        type=int,
        default=0,
        metavar="CLIENTS",
        help="instead of the soak: CLIENTS connected clients (players and spectators) on one "
        "of two servers, that server killed with kill -9, every client timed resuming on "
        "the other",
    )
    storm.add_argument(
        "--storm-p99",
        type=_seconds,
        default=5.0,
        metavar="S",
        help="the storm fails (exit 1) unless its resume time's p99 is at most S seconds "
        "(default 5); it fails too unless every client resumed within 60 s",
    )
    storm.add_argument(
        "--procs",
        type=int,
        default=None,
        help="client processes of the storm (default: one per 500 clients)",
    )
    out = parser.add_argument_group("output")
    out.add_argument(
        "--json", type=Path, default=None, metavar="FILE", help="also write the report as JSON"
    )
    out.add_argument(
        "--keep", action="store_true", help="keep the logs and the AOF even when all went well"
    )
    out.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    parser.set_defaults(func=run)
