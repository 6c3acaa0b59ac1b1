"""``tictactoe soak``'s checks across flags that argparse cannot make (a flag that needs or
excludes another, a target off loopback): ``flag_problems`` lists them all, each in one
line; the command refuses to run with any.
"""

from __future__ import annotations

import argparse
from urllib.parse import urlsplit

__all__ = ["flag_problems"]

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def flag_problems(args: argparse.Namespace) -> list[str]:
    problems = []
    if args.servers < 2:
        problems.append(f"--servers must be at least 2, got {args.servers}")
    if args.games < 1:
        problems.append(f"--games must be at least 1, got {args.games}")
    if not 0 <= args.think <= 10:
        problems.append(f"--think must be from 0 to 10 seconds, got {args.think}")
    if not 0 <= args.interval <= 3600:
        problems.append(f"--interval must be from 0 to 3600 seconds, got {args.interval}")
    if not 0 < args.loss <= 1:
        problems.append(f"--loss must be above 0 and at most 1, got {args.loss}")
    if args.cluster_failovers or args.cluster_kills:
        for flag, value in (
            ("--redis-restarts", args.redis_restarts),
            ("--redis-stops", args.redis_stops),
            ("--net-latency", args.net_latency),
            ("--net-loss", args.net_loss),
            ("--redis-partitions", args.redis_partitions),
            ("--half-opens", args.half_opens),
        ):
            if value:
                problems.append(
                    f"{flag} is for one Redis; with --cluster-failovers or --cluster-kills "
                    f"pass {flag} 0"
                )
    if args.storm < 0:
        problems.append(f"--storm must be 0 or more, got {args.storm}")
    if args.procs is not None and args.procs < 1:
        problems.append(f"--procs must be at least 1, got {args.procs}")
    if args.procs is not None and not args.storm:
        problems.append("--procs goes with --storm (the soak's clients share one process)")
    for url in args.target:
        parts = urlsplit(url)
        if parts.scheme != "http" or parts.port is None or parts.hostname not in LOOPBACK:
            problems.append(f"--target must be http://127.0.0.1:PORT (loopback), got {url!r}")
    if args.redis_url is not None:
        host = urlsplit(args.redis_url).hostname
        if not args.target:
            problems.append("--redis-url goes with --target (else the soak starts its own)")
        elif host not in LOOPBACK:
            problems.append(f"--redis-url must be on loopback, got {args.redis_url!r}")
    if args.target:
        for flag, value in (
            ("--kills", args.kills),
            ("--terms", args.terms),
            ("--redis-restarts", args.redis_restarts),
            ("--net-latency", args.net_latency),
            ("--net-loss", args.net_loss),
            ("--redis-partitions", args.redis_partitions),
            ("--half-opens", args.half_opens),
            ("--cluster-failovers", args.cluster_failovers),
            ("--cluster-kills", args.cluster_kills),
        ):
            if value:
                problems.append(
                    f"{flag} needs servers the soak starts; with --target pass {flag} 0"
                )
        if args.redis_stops and args.redis_url is None:
            problems.append("--redis-stops with --target needs --redis-url (or --redis-stops 0)")
        if args.storm:
            problems.append("--storm starts its own servers; it does not take --target")
        if args.affinity:
            problems.append("--affinity puts HAProxy before servers the soak starts, not --target")
    if args.affinity and args.storm:
        problems.append("--affinity is for the soak, not --storm")
    return problems
