"""``tictactoe perft``: the engine's exhaustive self-check, printed as one JSON object."""

from __future__ import annotations

import argparse
import json
from typing import Any

from core.perft import perft

from ..rules_flags import add_rules_flags, rules_from_args


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "perft",
        help="walk the whole game tree and count games, wins, draws and positions",
        description="Walk the game tree from the empty board (to --depth if given) and print "
        '{"games", "wins", "draws", "positions"} as JSON.',
    )
    add_rules_flags(parser)
    parser.add_argument("--depth", type=int, default=None, help="stop after this many moves")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.depth is not None and args.depth < 0:
        raise SystemExit(f"tictactoe: error: --depth must be 0 or more, got {args.depth}")
    print(json.dumps(perft(rules, args.depth).to_dict()))
    return 0
