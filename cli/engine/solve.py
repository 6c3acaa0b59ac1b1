"""``tictactoe solve``: the game-theoretic value of a position, as one JSON object.

``value`` is for the side to move; ``result`` says who wins with best play counted from
the start of the game (the first player, the second, or nobody); ``moves_to_end`` is the
plies to the end of best play (null for a draw, or when the budget ran out after the value
was proven). Without --budget-s the search runs until the value and distance are proven,
printing a progress line on stderr every second.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from core.ai import SearchProgress, Solver, solve
from core.ai.table import LARGE_BUCKETS

from ..ai_flags import add_budget_flag, budget_from_args, game_from_position
from ..rules_flags import add_rules_flags, rules_from_args

__all__ = ["register", "run"]

PHASES = {"value": "proving the value", "distance": "measuring the distance"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve a position: win, draw or loss with best play, and the best moves",
        description='Solve a position and print {"value", "result", "best_moves", "nodes", '
        '"seconds", ...} as JSON. value is for the side to move (win/draw/loss, or unknown '
        "when the budget ran out); result is who wins with best play: first, second, draw.",
    )
    add_rules_flags(parser, players=False)
    parser.add_argument(
        "--position",
        default=None,
        metavar="TEXT",
        help='the position, rows top to bottom joined by "/", layers by "|", '
        '"." empty (default: the empty board)',
    )
    add_budget_flag(parser, None, "before giving up on a proof")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    game = game_from_position(rules, args.position)
    budget = budget_from_args(args)
    report = None if args.quiet else _progress
    solver = Solver(rules, table_buckets=LARGE_BUCKETS, on_progress=report)
    result = solve(game, budget, solver=solver)
    data = {"rules": rules.describe(), "position": game.board.text, **result.to_dict()}
    print(json.dumps(data, ensure_ascii=False))
    return 0


def _progress(progress: SearchProgress) -> None:
    print(
        f"solving: {PHASES[progress.phase]}, {progress.nodes:,} nodes, "
        f"{progress.table_size:,} positions stored, {progress.seconds:.0f} s",
        file=sys.stderr,
        flush=True,
    )
