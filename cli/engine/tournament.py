"""``tictactoe tournament``: bots against bots, round robin, and the standings table.

Every pair of the listed levels plays --games games, first moves alternating, through
``core.tournament``'s round robin (3 points a win, 1 a draw); the table lists wins, draws,
losses and points, then each pair's score (in all, and split by who moved first), then how
many of the perfect bot's moves were proven (a move not proven within the budget is a best
guess, and says so), then, for each
audited level (--audit, default perfect), how many results its moves threw away: moves from
a won or drawn position into a worse one, checked after each game by the solver and the
opening book (moves the check could not decide within --audit-budget-s are listed apart).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from core import GameError
from core.ai import Budget
from core.ai.league import League, Score, run_league

from ..ai_flags import add_budget_flag, budget_from_args, fail
from ..rules_flags import add_rules_flags, rules_from_args

__all__ = ["register", "render_league", "run"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="a round robin of bots (random, easy, medium, hard, perfect) and its standings",
        description="Play a round robin among bot levels, --games games per pair with first "
        "moves alternating, and print the standings (wins, draws, losses, points: 3 a win, "
        "1 a draw) and each pair's score.",
    )
    parser.add_argument(
        "--bots",
        default="random,easy,medium,hard,perfect",
        help="comma-separated levels (default: all five)",
    )
    parser.add_argument("--games", type=int, default=2, help="games per pair (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the bots' choices")
    add_budget_flag(parser, 1.0, "per move for hard and perfect")
    parser.add_argument(
        "--audit",
        default="perfect",
        help="comma-separated levels whose moves are checked for thrown-away results "
        '(default: perfect; "" for none)',
    )
    parser.add_argument(
        "--audit-budget-s",
        type=float,
        default=5.0,
        metavar="S",
        help="seconds the check of one move may take (default 5)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    add_rules_flags(parser, players=False)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    levels = [name.strip() for name in args.bots.split(",") if name.strip()]
    budget = budget_from_args(args)
    audit = [name.strip() for name in args.audit.split(",") if name.strip()]
    audit = [name for name in audit if name in levels or args.audit != "perfect"]
    try:
        league = run_league(
            rules,
            levels,
            args.games,
            seed=args.seed,
            budgets=dict.fromkeys(levels, budget),
            audit=audit,
            audit_budget=Budget(seconds=args.audit_budget_s),
        )
    except GameError as exc:
        fail(str(exc))
    if args.json:
        print(json.dumps({"rules": rules.describe(), **league.to_dict()}, ensure_ascii=False))
    else:
        print(f"{rules.describe()}, {args.games} games a pair")
        print(render_league(league))
    return 0


def _wdl(score: Score) -> str:
    return f"{score.wins}-{score.draws}-{score.losses}"


def render_league(league: League) -> str:
    header = ("rank", "bot", "played", "wins", "draws", "losses", "points")
    rows = [
        (
            str(s.rank),
            s.level,
            str(s.played),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            str(s.points),
        )
        for s in league.standings
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(w) if i == 1 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in [header, *rows]
    ]
    lines.append("")
    lines += [
        f"{m.level} v {m.opponent}: {m.wins} won, {m.draws} drawn, {m.losses} lost "
        f"(moving first {_wdl(m.as_first)}; second {_wdl(m.as_second)})"
        for m in league.matches
    ]
    for proof in league.proofs:
        lines.append(
            f"{proof.level}: every one of its {proof.moves} moves proven"
            if not proof.unproven
            else f"{proof.level}: {proof.unproven} of its {proof.moves} moves unproven "
            "(the budget ran out before the proof: a best guess, not perfect play)"
        )
    for count in league.audits:
        found = count.audit
        unchecked = f", {found.unchecked} not decided by the check" if found.unchecked else ""
        lines.append(
            f"{count.level}: results thrown away {found.thrown} (moving first "
            f"{count.as_first.thrown}, second {count.as_second.thrown}; "
            f"of {found.moves} moves checked afterwards{unchecked})"
        )
    return "\n".join(lines)
