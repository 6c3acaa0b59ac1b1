"""``tictactoe soak``'s run: the flags checked, then the soak (bench.soak.run_soak) or the
reconnect storm (bench.soak.run_storm) run, its table printed, its report written, and the
exit status: the first failed check's for the soak, 0 or 1 for the storm.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .validation import flag_problems

__all__ = ["BAD_FLAGS", "ERROR", "run"]

ERROR = 1
"""The soak could not run (a process that did not start, a missing binary)."""
BAD_FLAGS = 2


def run(args: argparse.Namespace) -> int:
    problems = flag_problems(args)
    if problems:
        for problem in problems:
            print(f"tictactoe soak: error: {problem}", file=sys.stderr)
        return BAD_FLAGS
    from bench.soak import SoakError

    try:
        report = _run(args)
    except (SoakError, OSError) as exc:  # a process that did not start, a missing binary
        print(f"tictactoe soak: error: {exc}", file=sys.stderr)
        return ERROR
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    kept = report.get("logs") if args.storm else report.get("logs_kept")
    if kept:
        print(f"tictactoe soak: logs kept in {kept}", file=sys.stderr)
    if args.storm:
        return 0 if report["ok"] else 1
    return int(report["exit_status"])


def _run(args: argparse.Namespace) -> dict[str, Any]:
    from bench.soak import (
        SoakOptions,
        StormOptions,
        render_storm,
        render_table,
        run_soak,
        run_storm,
    )

    if args.storm:
        report = run_storm(
            StormOptions(
                clients=args.storm, procs=args.procs, p99_target=args.storm_p99, quiet=args.quiet
            )
        )
        print(render_storm(report))
    else:
        report = run_soak(
            SoakOptions(
                servers=args.servers,
                games=args.games,
                spectators=args.spectators,
                kills=args.kills,
                terms=args.terms,
                redis_restarts=args.redis_restarts,
                redis_stops=args.redis_stops,
                stop_seconds=args.stop_seconds,
                interval=args.interval,
                duration=args.duration,
                restart_limit=args.restart_limit,
                game_timeout=args.game_timeout,
                think=args.think,
                seed=args.seed,
                targets=tuple(args.target),
                redis_url=args.redis_url,
                affinity=args.affinity,
                latencies=args.net_latency,
                losses=args.net_loss,
                partitions=args.redis_partitions,
                half_opens=args.half_opens,
                latency=args.latency,
                loss=args.loss,
                net_seconds=args.net_seconds,
                lease_ttl=args.lease_ttl,
                cluster_failovers=args.cluster_failovers,
                cluster_kills=args.cluster_kills,
                keep=args.keep,
                quiet=args.quiet,
            )
        )
        print(render_table(report))
    return report
