"""What spectators' guesses cost the players: the opponent's move latency in one room watched
by a guessing crowd, against the same room with the same crowd not guessing, as a ratio.

    .venv/bin/python -m bench.guesses [--spectators 1000] [--moves 40] [--rounds 3]
        [--think 1.0] [--config redis] [--crowd same|apart] [--ratio 1.10]

One server (``--config``: ``redis`` one worker, ``redis2`` two, on a private redis-server),
one room (19×19, a line of 19: games last, a full board is a rematch). The two players run
in this process; ``--spectators`` WebSockets on the spectators' path run in a child process,
on the players' server or (``--crowd apart``) on a second one-worker server on the same
Redis, as a balancer sending the spectators' path elsewhere would have it. The crowd's
client parses only the moves it guesses at: it shares the host's cores with the server.
The players alternate moves, each ``--think`` seconds after the opponent's; the latency of a
move is from the mover's send to the opponent's ``moved``, both on this process's clock.
Rounds alternate (so drift falls on both): ``--moves`` moves with the crowd only watching,
then ``--moves`` with every spectator guessing each move once, at a random moment of the
think time, a random empty cell. The server runs without the admission guard
(``TICTACTOE_ADMISSION_LAG=0`` unless set), as in bench.big_room. Reports each phase's
p50/p99 and the ratio of the p99s, with the guesses sent and the splits received, and the
CPU each process spent per second of each phase (``cpu_per_s``: the players' server, the
crowd's server when apart, the crowd's client, the players' process); exits 1 when the ratio
is above ``--ratio``, or when under half the guesses the crowd could make counted
(``counted_share``: a crowd starved of CPU guesses late or not at all, and then the run does
not measure a guessing crowd).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import queue
import sys
import time
from typing import Any

from ..load.launch import CONFIGS, Launched, RedisProcess, launch
from .crowd import run_crowd
from .players import Meter, rounds
from .room import WAIT, create_room

__all__ = ["main", "measure"]

RATIO = 1.10
MIN_SHARE = 0.5
"""A run passes only when at least this share of the crowd's possible guesses counted."""
ADMISSION = "TICTACTOE_ADMISSION_LAG"
JOIN_WAIT = 600.0


def measure(args: argparse.Namespace) -> dict[str, Any]:
    # a crowd joining on a busy machine would be turned away by the admission guard
    os.environ.setdefault(ADMISSION, "0")
    redis = RedisProcess().start()
    servers: list[Launched] = []
    try:
        servers.append(launch("server", CONFIGS[args.config], redis.url))
        if args.crowd == "apart":  # the spectators' path served elsewhere (deploy/haproxy.cfg)
            servers.append(launch("server", CONFIGS["redis"], redis.url))
        server, crowd_server = servers[0], servers[-1]
        room_id = asyncio.run(create_room(server.url))
        ctx = multiprocessing.get_context("spawn")
        guessing, ready, stop, out = ctx.Value("b", False), ctx.Event(), ctx.Event(), ctx.Queue()
        signals = (guessing, ready, stop, out)
        crowd = ctx.Process(
            daemon=True,  # never outlives the bench
            target=run_crowd,
            args=(crowd_server.url, room_id, args.spectators, args.think, signals),
        )
        crowd.start()
        try:
            deadline = time.monotonic() + JOIN_WAIT
            while not ready.wait(1.0):
                if not crowd.is_alive() or not out.empty() or time.monotonic() > deadline:
                    raise RuntimeError(f"the crowd did not join: {out.get(timeout=5)}")
            pids = {"players_server": server.process.pid, "crowd": int(crowd.pid or 0)}
            pids["players"] = os.getpid()
            if crowd_server is not server:
                pids["crowd_server"] = crowd_server.process.pid
            meter = Meter(pids)
            result = asyncio.run(rounds(server.url, room_id, args, guessing, meter))
        finally:
            stop.set()
            counts = _counts(out) if crowd.is_alive() else {}
            crowd.join(WAIT)
            if crowd.is_alive():
                crowd.kill()
    finally:
        for launched in servers:
            launched.stop()
        redis.stop()
    plain, guessed = result["plain"]["p99_ms"], result["guessing"]["p99_ms"]
    return {
        "spectators": args.spectators,
        "config": args.config,
        "crowd_on": args.crowd,
        "think_s": args.think,
        **result,
        "p99_ratio": round(guessed / plain, 3) if plain else None,
        "crowd": counts,
        "counted_share": _counted_share(counts, args.spectators * result["guessing"]["moves"]),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


def _counted_share(counts: dict[str, Any], most: int) -> float:
    """The guesses that counted (sent, not refused as stale) over one a spectator a guessed
    move: below ``MIN_SHARE`` the crowd (starved of CPU) did not guess as the goal says."""
    counted = counts.get("guesses", 0) - counts.get("refused", 0)
    return round(counted / most, 3) if most else 0.0


def _counts(out: Any) -> dict[str, Any]:
    """The crowd's counts, from its queue; none when it already said why it failed."""
    try:
        found: dict[str, Any] = out.get(timeout=WAIT)
    except queue.Empty:
        return {}
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.guesses", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=40, help="moves per phase of each round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--think", type=float, default=1.0, help="seconds before each move")
    parser.add_argument("--config", choices=["redis", "redis2"], default="redis")
    parser.add_argument(
        "--crowd",
        choices=["same", "apart"],
        default="same",
        help="the crowd on the players' server (same) or on a server of its own, one worker "
        "on the same Redis (apart), as deploy/haproxy.cfg's spectators' path allows",
    )
    parser.add_argument(
        "--ratio", type=float, default=RATIO, help="the highest p99 ratio that passes"
    )
    args = parser.parse_args(argv)
    if args.spectators < 1 or args.moves < 1 or args.rounds < 1 or args.think < 0:
        parser.error("--spectators, --moves and --rounds must be 1 or more, --think 0 or more")
    report = measure(args)
    print(json.dumps(report, indent=2))
    ratio, share = report["p99_ratio"], report["counted_share"]
    if share < MIN_SHARE:
        print(f"not a guessing crowd: {share:.0%} of its guesses counted", file=sys.stderr)
        return 1
    return 0 if ratio is not None and ratio <= args.ratio else 1
