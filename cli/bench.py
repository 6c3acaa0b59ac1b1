"""``tictactoe bench``: the load generator against the server and the bare relay.

G concurrent games (two players and S spectators each, real WebSockets, the real
protocol) for a fixed time, on each configuration the bench starts itself (memory store;
Redis with one worker; Redis with two; two single-process servers on Redis behind HAProxy
with room affinity), each followed by the bare relay in the same shape for the ratio to
the stack's limit. Closed loop (each move after the opponent's) or, with ``--open-loop``,
moves due at a fixed rate whatever the answers. Or ``--url`` to load a running server.
Prints a Markdown table (and writes the whole report as JSON with ``--json FILE``); the
code is in ``bench/load`` (docs/performance.md has the commands and figures). It needs the
``bench`` extra (``pip install 'tictactoe-server[bench]'``); without it, it says so in one
line.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["BENCH_EXTRA", "missing_extra", "register"]

BENCH_EXTRA = ("psutil",)
"""What the ``bench`` extra of pyproject.toml installs (import names), beyond the server's
own dependencies; a test holds the two lists equal."""


def missing_extra() -> list[str]:
    """The modules of the ``bench`` extra that are not installed."""
    return [name for name in BENCH_EXTRA if importlib.util.find_spec(name) is None]


def _rules(text: str) -> dict[str, Any]:
    try:
        rules = json.loads(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not JSON: {exc}") from None
    if not isinstance(rules, dict):
        raise argparse.ArgumentTypeError("the rules must be a JSON object")
    return rules


def register(subparsers: Any) -> None:
    from bench.load import CONFIGS, CROWD_FROM

    parser = subparsers.add_parser(
        "bench",
        help="load the server (and the bare relay) with real WebSocket games",
        description=__doc__.split("\n\n")[1].replace("\n", " ") if __doc__ else None,
    )
    parser.add_argument(
        "--configs",
        default="memory,redis,redis2",
        help=f"comma-separated configurations to start and load: {', '.join(CONFIGS)} "
        "(default: memory,redis,redis2; affinity runs two single-process servers behind "
        "HAProxy, which must be installed, and counts its CPU with theirs)",
    )
    parser.add_argument("--games", "-G", type=int, default=100, help="concurrent games")
    parser.add_argument(
        "--spectators",
        "-S",
        type=int,
        default=1,
        help="spectators per game (with --next rematch, --procs above 1 and "
        f"at least {CROWD_FROM} of them, each room's spectators are spread "
        "over all the load processes, and every one of them joins before the "
        "warm-up starts: the window opens with everyone in)",
    )
    parser.add_argument(
        "--players-apart",
        action="store_true",
        help="with spectators spread over the load processes (above): the "
        "players of every room in the first process, which watches nothing, "
        "and the spectators in the others (needs --procs 2 or more), so that "
        "the players' latency carries none of the generator's reading of the "
        "crowd",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a player waits before each move, on average (0: as fast as it can)",
    )
    parser.add_argument(
        "--open-loop",
        type=float,
        default=None,
        metavar="RATE",
        help="open loop: every game's moves fall due RATE times a second on a clock, "
        "whatever the server answers (games × RATE moves/s offered; a mover whose turn "
        "comes late sends at once, and the schedule does not move); reports what was "
        "achieved, how late moves went out, and whether the server kept up (instead of "
        "--think)",
    )
    parser.add_argument(
        "--think-spread",
        type=float,
        default=None,
        metavar="F",
        help="each think time is drawn uniformly from think × [1 − F, 1 + F] "
        "(default 0.5; 0: the same think time before every move, which "
        "makes the games move in step and the load bursty)",
    )
    parser.add_argument(
        "--rematch-think",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="with --next rematch: seconds a player waits, on average, after a "
        "game's last move before asking for the rematch (drawn as think "
        "times are; default 0: at once, so the rematch's events reach a "
        "crowd while the last move still does)",
    )
    parser.add_argument(
        "--next",
        choices=("room", "rematch"),
        default="room",
        help="after a game: a new room with new connections (room, the "
        "default), or a rematch in the same room, the same players and "
        "spectators staying (rematch)",
    )
    parser.add_argument(
        "--duration", type=float, default=10.0, help="measured seconds (of each round)"
    )
    parser.add_argument(
        "--warmup", type=float, default=2.0, help="seconds of load before measuring"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measured windows per target, server and relay taking turns "
        "(more rounds even out other work on a shared machine)",
    )
    parser.add_argument("--procs", type=int, default=1, help="load generator processes")
    parser.add_argument("--seed", type=int, default=1, help="seed of the scripted games")
    parser.add_argument(
        "--rules",
        type=_rules,
        default={},
        help='rules of every game as JSON (default 3×3): \'{"rows": 6, '
        '"cols": 7, "k": 4, "gravity": true}\'',
    )
    parser.add_argument(
        "--no-baseline", dest="baseline", action="store_false", help="skip the bare relay"
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="also load a plain Starlette server in each configuration (bench/load/plain.py: "
        "the straightforward way to write this server, for a ratio a reader knows)",
    )
    parser.add_argument(
        "--no-probe",
        dest="probe",
        action="store_false",
        help="skip counting Redis round trips and encodes on one game",
    )
    parser.add_argument(
        "--idle",
        type=int,
        default=0,
        metavar="N",
        help="also measure idle memory per connection with N connections",
    )
    parser.add_argument(
        "--spectator-cost",
        type=int,
        default=0,
        metavar="S",
        help="also run with 0 and S spectators per game to price one",
    )
    parser.add_argument(
        "--url", default=None, help="load a running server at http://HOST:PORT instead"
    )
    parser.add_argument(
        "--server-pid",
        type=int,
        default=None,
        help="with --url: sample this process tree's CPU and RSS",
    )
    parser.add_argument(
        "--redis-url",
        default=None,
        help="Redis for the redis configurations (default: a private one); "
        "with --url, the server's Redis, to count calls per move",
    )
    parser.add_argument(
        "--json", type=Path, default=None, metavar="FILE", help="write the whole report as JSON"
    )
    parser.add_argument(
        "--no-fastpath",
        dest="fastpath",
        action="store_false",
        help="start the servers with --no-fastpath (plain Starlette, uvicorn and redis-py) "
        "to measure the plain path; the relay is unchanged",
    )
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="no progress bar or status lines"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    missing = missing_extra()
    if missing:
        print(
            f"tictactoe bench: error: {', '.join(missing)} not installed; the benchmark needs "
            "the bench extra: pip install 'tictactoe-server[bench]'",
            file=sys.stderr,
        )
        return 2

    from bench.load import CONFIGS, CROWD_FROM, BenchOptions, run_bench, write_report
    from bench.load.think import SPREAD

    configs = tuple(name.strip() for name in args.configs.split(",") if name.strip())
    problems = [f"unknown configuration {name!r}" for name in configs if name not in CONFIGS]
    for flag, value, low in (
        ("--games", args.games, 1),
        ("--spectators", args.spectators, 0),
        ("--procs", args.procs, 1),
        ("--idle", args.idle, 0),
        ("--rounds", args.rounds, 1),
        ("--spectator-cost", args.spectator_cost, 0),
    ):
        if value < low:
            problems.append(f"{flag} must be at least {low}, got {value}")
    spread = SPREAD if args.think_spread is None else args.think_spread
    if not 0 <= spread <= 1:
        problems.append(f"--think-spread must be from 0 to 1, got {spread}")
    for flag, value in (
        ("--think", args.think),
        ("--warmup", args.warmup),
        ("--rematch-think", args.rematch_think),
    ):
        if not 0 <= value <= 3600:
            problems.append(f"{flag} must be from 0 to 3600 seconds, got {value}")
    if args.open_loop is not None:
        if not 0 < args.open_loop <= 1000:
            problems.append(f"--open-loop must be above 0 and at most 1000, got {args.open_loop}")
        if args.think:
            problems.append("--open-loop sets when moves are made: it takes no --think")
    if not 0 < args.duration <= 3600:
        problems.append(f"--duration must be above 0 and at most 3600, got {args.duration}")
    crowd = args.next == "rematch" and args.procs > 1 and args.spectators >= CROWD_FROM
    if args.procs > args.games and not crowd:  # a crowd's process may only watch
        problems.append(f"--procs ({args.procs}) cannot exceed --games ({args.games})")
    if args.players_apart and not crowd:
        problems.append(
            f"--players-apart needs the spectators spread: --next rematch, "
            f"--procs 2 or more and --spectators {CROWD_FROM} or more"
        )
    if args.rematch_think and args.next != "rematch":
        problems.append("--rematch-think needs --next rematch")
    if not args.fastpath and args.url is not None:
        problems.append("--no-fastpath applies to the servers the bench starts, not to --url")
    if problems:
        for problem in problems:
            print(f"tictactoe bench: error: {problem}", file=sys.stderr)
        return 2
    options = BenchOptions(
        configs=configs,
        games=args.games,
        spectators=args.spectators,
        think=args.think,
        think_spread=spread,
        next=args.next,
        duration=args.duration,
        warmup=args.warmup,
        rounds=args.rounds,
        procs=args.procs,
        seed=args.seed,
        rules=args.rules,
        baseline=args.baseline,
        plain=args.plain,
        probe=args.probe,
        idle=args.idle,
        spectator_cost=args.spectator_cost,
        url=args.url,
        server_pid=args.server_pid,
        redis_url=args.redis_url,
        quiet=args.quiet,
        players_apart=args.players_apart,
        rematch_think=args.rematch_think,
        fastpath=args.fastpath,
        open_loop=args.open_loop,
    )
    report = run_bench(options)
    write_report(report, args.json)
    failed = [run for run in report["runs"] if run["errors"]["total"] or not run["moves"]]
    for run in failed:
        print(
            f"tictactoe bench: {run['config']} {run['target']}: {run['moves']} moves, "
            f"errors {run['errors']['by_kind']}",
            file=sys.stderr,
        )
    return 1 if failed else 0
