"""One room, a big crowd, two server processes: does every spectator see every move, how
late, and what does a delivery cost against the bare write?

    .venv/bin/python -m bench.big_room [--spectators 10000] [--procs 4] [--rate 0.5]

The bench's crowd mode (bench.load.crowd) on a Redis store: one game in one room, the
players in a load process of their own, ``--spectators`` on the spectators' path spread over
the other load processes, each room's moves due ``--rate`` times a second on an open loop
(rematch after each game, the crowd staying). ``redis2`` is one server with two workers
(the kernel spreads the connections); ``affinity`` two single-process servers behind a real
HAProxy (the crowd spread by least connections, its CPU shown apart). In the same run,
``bench.fanout`` prices the bare write: one frame written to each of ``--fanout-connections``
sockets in a bare loop. The servers' CPU over the window divided by the deliveries (every
spectator × every move sent in it) is held against that, as a ratio.

Exits 1 when a delivery was missed, the spectator p99 is above ``--p99-ms`` (300) or the
ratio above ``--ratio`` (1.3); 2 on bad arguments. The open-file limit is raised to the hard
limit first, and the servers run without the admission guard (``TICTACTOE_ADMISSION_LAG=0``
unless set: a crowd joining on a busy machine would be turned away); the load processes
and servers inherit both.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["goals", "main", "run"]

ADMISSION = "TICTACTOE_ADMISSION_LAG"
P99_MS = 300.0
RATIO = 1.3


def raise_file_limit() -> int:
    """The soft open-file limit raised to the hard one; the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1 << 20
    if soft == resource.RLIM_INFINITY or soft >= hard:
        return soft if soft != resource.RLIM_INFINITY else hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def run(
    *,
    spectators: int,
    procs: int,
    config: str,
    rate: float,
    warmup: float,
    duration: float,
    fanout_connections: int,
    quiet: bool = False,
) -> dict[str, Any]:
    """The run's figures (see the module); ``goals`` judges them."""
    from bench.fanout import measure as fanout
    from bench.load import BenchOptions, run_bench

    limit = raise_file_limit()
    needed = spectators // max(1, procs - 1) + 500
    if limit < needed:
        raise RuntimeError(
            f"{spectators} spectators need about {needed} open files a load "
            f"process, the limit is {limit} (ulimit -Hn)"
        )
    options = BenchOptions(
        configs=(config,),
        games=1,
        spectators=spectators,
        next="rematch",
        duration=duration,
        warmup=warmup,
        procs=procs,
        players_apart=True,
        baseline=False,
        probe=False,
        open_loop=rate,
        quiet=quiet,
    )
    # The admission guard refuses newcomers while a worker's loop lags (a crowd of
    # thousands joining on a shared machine does that); this run prices delivery, so its
    # servers admit everyone (they inherit the variable; ours is put back after).
    before = os.environ.get(ADMISSION)
    os.environ.setdefault(ADMISSION, "0")
    try:
        report = run_bench(options)
    finally:
        if before is None:
            os.environ.pop(ADMISSION, None)
    bare = fanout(connections=fanout_connections, events=100, rounds=3)
    run_ = report["runs"][0]
    crowd = run_.get("crowd") or {}
    server = run_.get("server") or {}
    delivered = int(run_["latency_ms"]["spectator"]["count"] or 0)
    proxy_s = (run_.get("proxy_cpu_us_per_move") or 0.0) * run_["moves"] / 1e6
    server_s = float(server.get("cpu_s", 0.0)) - proxy_s
    per_delivery = server_s / delivered * 1e6 if delivered else None
    write = bare["us_cpu_per_frame"]["write"]
    return {
        "config": config,
        "spectators": spectators,
        "joined": crowd.get("watchers", 0),
        "procs": procs,
        "rate": rate,
        "moves": run_["moves"],
        "expected_deliveries": crowd.get("expected", 0),
        "missed": crowd.get("missed", 0),
        "errors": run_["errors"],
        "spectator_ms": run_["latency_ms"]["spectator"],
        "opponent_ms": run_["latency_ms"]["opponent"],
        "server_cpu_s": server_s,
        "proxy_cpu_s": proxy_s if run_.get("proxy_cpu_us_per_move") is not None else None,
        "server_us_per_delivery": per_delivery,
        "bare_write_us_per_frame": write,
        "fanout": bare,
        "ratio": per_delivery / write if per_delivery is not None and write else None,
        "generator_cpu_percent": run_["generator"]["cpu_percent"],
        "load_average": report["machine"]["load_average"],
        "run": run_,
    }


def goals(result: dict[str, Any], *, p99_ms: float = P99_MS, ratio: float = RATIO) -> list[str]:
    """What the run missed (empty: every goal met)."""
    missed: list[str] = []
    if result["joined"] < result["spectators"]:
        missed.append(f"only {result['joined']:,} of {result['spectators']:,} spectators joined")
    if not result["moves"] or not result["expected_deliveries"]:
        missed.append("no move was delivered in the window")
    if result["missed"]:
        missed.append(
            f"{result['missed']:,} of {result['expected_deliveries']:,} deliveries missed"
        )
    if result["errors"]["total"]:
        missed.append(f"errors {result['errors']['by_kind']}")
    p99 = result["spectator_ms"]["p99"]
    if p99 is None or p99 > p99_ms:
        missed.append(f"spectator p99 {p99} ms above {p99_ms:g} ms")
    if result["ratio"] is None or result["ratio"] > ratio:
        missed.append(f"CPU a delivery {result['ratio']} × the bare write, above {ratio:g} ×")
    return missed


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def line(result: dict[str, Any]) -> str:
    lat = result["spectator_ms"]
    per = result["server_us_per_delivery"]
    ratio = result["ratio"]
    return (
        f"{result['config']}: {result['joined']:,} spectators in one room over "
        f"{result['procs'] - 1} load processes, {result['moves']} moves in the window, "
        f"{result['expected_deliveries']:,} deliveries, {result['missed']:,} missed; spectator "
        f"p50 / p99 / max {_ms(lat['p50'])} / {_ms(lat['p99'])} / {_ms(lat['max'])} ms; "
        f"server CPU {'–' if per is None else f'{per:.2f}'} µs a delivery, bare write "
        f"{result['bare_write_us_per_frame']:.2f} µs a frame: "
        f"{'–' if ratio is None else f'{ratio:.2f}'} ×; load average {result['load_average']}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.big_room", description=__doc__)
    parser.add_argument("--spectators", type=int, default=10_000)
    parser.add_argument("--procs", type=int, default=4, help="load processes (players: one)")
    parser.add_argument("--config", choices=("redis2", "affinity"), default="redis2")
    parser.add_argument("--rate", type=float, default=0.5, help="moves a second (open loop)")
    parser.add_argument(
        "--warmup",
        type=float,
        default=30.0,
        help="seconds before the window: a crowd's joins leave the workers a backlog of "
        "`spectators` events to everyone, which a short warm-up puts in the window "
        "(5,000 spectators after 3 s: p50 13 s)",
    )
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--fanout-connections", type=int, default=1000)
    parser.add_argument("--p99-ms", type=float, default=P99_MS)
    parser.add_argument("--ratio", type=float, default=RATIO)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--quiet", "-q", action="store_true")
    args = parser.parse_args(argv)
    problems = []
    if args.spectators < 100:
        problems.append(f"--spectators must be at least 100 (crowd mode), got {args.spectators}")
    if not 3 <= args.procs <= 16:
        problems.append(f"--procs must be from 3 to 16 (one for the players), got {args.procs}")
    if not 0 < args.rate <= 50:
        problems.append(f"--rate must be above 0 and at most 50, got {args.rate}")
    if problems:
        for problem in problems:
            print(f"bench.big_room: error: {problem}", file=sys.stderr)
        return 2
    result = run(
        spectators=args.spectators,
        procs=args.procs,
        config=args.config,
        rate=args.rate,
        warmup=args.warmup,
        duration=args.duration,
        fanout_connections=args.fanout_connections,
        quiet=args.quiet,
    )
    print(line(result))
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    missed = goals(result, p99_ms=args.p99_ms, ratio=args.ratio)
    for goal in missed:
        print(f"bench.big_room: goal missed: {goal}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
