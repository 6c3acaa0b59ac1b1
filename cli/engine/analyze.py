"""``tictactoe analyze``: every legal move of a position with its value for the mover.

Prints the board with each empty cell marked (W3: wins, the game ends 3 plies from now;
D: draws; L4: loses; W or L alone: proven, distance not measured in time; a signed number:
a heuristic score when not proven in time), then the analysis as one JSON line (only the
JSON with --json), each move with ``proven``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from core import Move, Rules
from core.ai import Verdict
from core.ai.analysis import Analysis, MoveAnalysis, analyze

from ..ai_flags import add_budget_flag, budget_from_args, fail, game_from_position
from ..rules_flags import add_rules_flags, rules_from_args

__all__ = ["register", "render_analysis", "run"]

LEGEND = (
    "W<n>: the mover wins, the game ending n plies from now; D: a draw; L<n>: the mover "
    "loses (W/L alone: distance not measured in time); +n/-n: a heuristic score (unproven); "
    ". not playable now"
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="analyse every legal move of a position (win/draw/loss and distance, or a score)",
        description="Analyse every legal move of a position: its value for the side to move "
        "(win, draw or loss and the plies to the end) when proven within the budget, "
        "otherwise a heuristic score. Prints a marked board, then the analysis as JSON.",
    )
    add_rules_flags(parser, players=False)
    parser.add_argument(
        "--position", default=None, metavar="TEXT", help="the position (default: empty board)"
    )
    add_budget_flag(parser, 1.0, "for the whole analysis")
    parser.add_argument("--json", action="store_true", help="print only the JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    game = game_from_position(rules, args.position)
    if game.outcome is not None:
        fail(f"--position: the game is already over ({game.outcome.reason.value})")
    analysis = analyze(game, budget_from_args(args))
    if not args.json:
        print(render_analysis(rules, analysis))
    print(json.dumps({"rules": rules.describe(), **analysis.to_dict()}, ensure_ascii=False))
    return 0


def _label(entry: MoveAnalysis) -> str:
    distance = "" if entry.moves_to_end is None else str(entry.moves_to_end)
    if entry.value is Verdict.WIN:
        return f"W{distance}"
    if entry.value is Verdict.LOSS:
        return f"L{distance}"
    if entry.value is Verdict.DRAW:
        return "D"
    return f"{entry.score:+d}"


def render_analysis(rules: Rules, analysis: Analysis) -> str:
    """The position with every cell shown: marks as they are, moves by their label."""
    labels = {entry.move: _label(entry) for entry in analysis.moves}
    symbols = analysis.position.replace("|", "").replace("/", "")
    width = max([len(label) for label in labels.values()] + [1, len(str(rules.cols - 1))])
    lines = [f"{analysis.turn} to move. {LEGEND}"]
    for layer in range(rules.layers):
        if rules.is_3d:
            lines.append(f"layer {layer}")
        lines.append("    " + " ".join(str(c).rjust(width) for c in range(rules.cols)))
        for row in range(rules.rows):
            cells = []
            for col in range(rules.cols):
                symbol = symbols[rules.index(row, col, layer)]
                text = symbol if symbol != "." else labels.get(Move(row, col, layer), ".")
                cells.append(text.rjust(width))
            lines.append(f"{row:>3} " + " ".join(cells))
    best = analysis.best
    if best is not None:
        lines.append(f"best: {best.move} ({_label(best)})")
    return "\n".join(lines)
