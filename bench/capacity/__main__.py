"""``python -m bench.capacity measure|model|check``: the capacity plan (docs/operations.md).

    python -m bench.capacity measure [--json FILE]       # unit costs on this machine
    python -m bench.capacity model [--units FILE]         # sizing for 10k, 100k, 1M games
    python -m bench.capacity check [--units FILE]         # scaled-down run vs the model

``model`` and ``check`` read the reference unit costs (bench/capacity/reference.json) unless
``--units`` names another file. ``check`` exits 1 when a figure is off by more than the
tolerance, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from . import REFERENCE
from .model import Hosts, Load, plan
from .report import check_table, plan_table, units_table

__all__ = ["main"]

ASSUMED = Hosts()


def _positive(kind: type[float] | type[int]):  # type: ignore[no-untyped-def]
    def parse(text: str) -> float | int:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be above 0, got {text!r}")
        return value

    return parse


def _share(text: str) -> float:
    value = _positive(float)(text)
    if value > 1:
        raise argparse.ArgumentTypeError(f"must be a share from 0 to 1, got {text!r}")
    return float(value)


def _games(text: str) -> list[int]:
    try:
        values = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of whole numbers: {text!r}") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"games must be at least 1 each, got {text!r}")
    return values


def _load_flags(parser: argparse.ArgumentParser, games: int, rate: float, warmup: float) -> None:
    parser.add_argument("--games", type=_positive(int), default=games, help="concurrent games")
    parser.add_argument(
        "--rate", type=_positive(float), default=rate, help="moves a second in each game"
    )
    parser.add_argument("--spectators", type=int, default=2, help="spectators a game")
    parser.add_argument(
        "--warmup",
        type=_positive(float),
        default=warmup,
        help="seconds before the window; the games start over one move interval (1/rate), "
        "so keep it a few seconds longer, or their joins fall into the window",
    )
    parser.add_argument("--duration", type=_positive(float), default=10.0)
    parser.add_argument("--procs", type=_positive(int), default=2, help="load processes")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench.capacity", description=__doc__)
    modes = parser.add_subparsers(dest="mode", required=True)
    measure = modes.add_parser("measure", help="measure the unit costs on this machine")
    _load_flags(measure, 300, 0.5, 3.0)
    measure.add_argument("--idle", type=_positive(int), default=2000, help="idle connections")
    measure.add_argument("--rounds", type=_positive(int), default=2, help="windows each")
    measure.add_argument("--json", type=Path, default=None, help="write the unit costs here")
    model = modes.add_parser("model", help="size 10k, 100k and 1M games from unit costs")
    model.add_argument("--units", type=Path, default=REFERENCE)
    model.add_argument("--games", type=_games, default=[10_000, 100_000, 1_000_000])
    model.add_argument("--interval", type=_positive(float), default=5.0, help="s between moves")
    model.add_argument("--spectators", type=int, default=2)
    model.add_argument("--cores", type=_positive(int), default=ASSUMED.cores)
    model.add_argument("--memory-gib", type=_positive(float), default=ASSUMED.memory_gib)
    model.add_argument("--headroom", type=_share, default=ASSUMED.cpu_headroom, help="CPU share")
    model.add_argument(
        "--shard-memory-gib", type=_positive(float), default=ASSUMED.shard_memory_gib
    )
    model.add_argument("--fd-limit", type=_positive(int), default=ASSUMED.fd_limit)
    model.add_argument("--ports", type=_positive(int), default=ASSUMED.ports_per_tuple)
    model.add_argument(
        "--max-connections",
        type=_positive(int),
        default=ASSUMED.max_connections,
        help="the servers' --max-connections",
    )
    model.add_argument("--json", type=Path, default=None, help="write the plans here")
    check = modes.add_parser("check", help="a scaled-down run against the model")
    _load_flags(check, 600, 0.25, 8.0)
    check.add_argument("--units", type=Path, default=REFERENCE)
    check.add_argument(
        "--tolerance",
        type=_positive(float),
        default=0.5,
        help="a figure passes when measured ÷ model is within [1/(1+T), 1+T] (default 0.5)",
    )
    check.add_argument("--json", type=Path, default=None, help="write the report here")
    return parser


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if getattr(args, "spectators", 0) < 0:
        print("bench.capacity: error: --spectators must be at least 0", file=sys.stderr)
        return 2
    from .runs import CheckOptions, MeasureOptions, check, load_units, measure

    if args.mode == "measure":
        report = measure(
            MeasureOptions(
                args.games,
                args.rate,
                args.spectators,
                args.warmup,
                args.duration,
                args.procs,
                args.idle,
                args.rounds,
            ),
            say=_say,
        )
        from .model import Units

        if args.json is not None:
            args.json.write_text(json.dumps(report, indent=2) + "\n")
        if "failure" in report:
            print(f"bench.capacity measure: {report['failure']}", file=sys.stderr)
            return 1
        print(units_table(Units(**report["units"])))
        return 0
    try:
        units = load_units(args.units)
    except ValueError as exc:
        print(f"bench.capacity: error: {exc}", file=sys.stderr)
        return 2
    if args.mode == "model":
        hosts = Hosts(
            cores=args.cores,
            memory_gib=args.memory_gib,
            cpu_headroom=args.headroom,
            shard_memory_gib=args.shard_memory_gib,
            fd_limit=args.fd_limit,
            ports_per_tuple=args.ports,
            max_connections=args.max_connections,
        )
        plans = [plan(units, Load(g, args.interval, args.spectators), hosts) for g in args.games]
        print(units_table(units))
        print()
        print(plan_table(plans, hosts))
        if args.json is not None:
            args.json.write_text(json.dumps([p.as_dict() for p in plans], indent=2) + "\n")
        return 0
    report = check(
        units,
        CheckOptions(
            args.games,
            args.rate,
            args.spectators,
            args.warmup,
            args.duration,
            args.procs,
            args.tolerance,
        ),
        say=_say,
    )
    print(check_table(report))
    window = report["window"]
    print(
        f"{window['moves_per_s']:,.0f} moves/s of {window['offered_moves_per_s']:,.0f} offered, "
        f"opponent p99 {window['opponent_ms']['p99']} ms, load average "
        f"{report['machine']['load_average']} → {report['machine']['load_average_after']}"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    if not report["ok"]:
        print(
            f"bench.capacity check: off the model by more than {args.tolerance:.0%}"
            + (f": {report['failure']}" if "failure" in report else ""),
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
