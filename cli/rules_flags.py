"""The rules flags every subcommand shares: --rows --cols --k --gravity --misere ..."""

from __future__ import annotations

import argparse

from core import Rules, RulesError

__all__ = ["add_rules_flags", "rules_from_args"]


def add_rules_flags(parser: argparse.ArgumentParser, *, players: bool = True) -> None:
    group = parser.add_argument_group("rules")
    group.add_argument("--rows", type=int, default=3, help="board rows, 1-19 (default 3)")
    group.add_argument("--cols", type=int, default=3, help="board columns, 1-19 (default 3)")
    group.add_argument("--k", type=int, default=0, help="k in a row to win (default: full line)")
    group.add_argument("--gravity", action="store_true", help="pieces drop (Connect Four)")
    group.add_argument("--misere", action="store_true", help="completing a line loses")
    group.add_argument("--layers", type=int, default=1, help="layers for 3D boards (e.g. 4)")
    group.add_argument(
        "--early-draw", action="store_true", help="draw as soon as no line can be completed"
    )
    if players:
        group.add_argument("--players", type=int, default=2, help="2 to 4 players (default 2)")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """Rules from parsed flags; a RulesError names the flag (e.g. ``--k: ...``)."""
    try:
        return Rules(
            rows=args.rows,
            cols=args.cols,
            k=args.k,
            gravity=args.gravity,
            misere=args.misere,
            players=getattr(args, "players", 2),
            layers=args.layers,
            early_draw=args.early_draw,
        )
    except RulesError as exc:
        flag = "--" + exc.field.replace("_", "-")
        raise SystemExit(f"tictactoe: error: {flag}: {exc.reason}") from exc
