"""Flags and input checks shared by the bot and solver commands: budget, position, clean exits.

Used by solve, analyze, tournament and play --bot.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from core import Game, GameError, Rules
from core.ai import Budget

__all__ = ["add_budget_flag", "budget_from_args", "fail", "game_from_position"]


def fail(message: str) -> NoReturn:
    """Exit 2 (a usage error, like argparse's) with one clear line on stderr."""
    print(f"tictactoe: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def add_budget_flag(parser: argparse.ArgumentParser, default: float | None, what: str) -> None:
    shown = "no limit" if default is None else f"{default:g}"
    parser.add_argument(
        "--budget-s",
        type=float,
        default=default,
        metavar="S",
        help=f"seconds of thinking {what} (default: {shown})",
    )


def budget_from_args(args: argparse.Namespace) -> Budget:
    try:
        return Budget(seconds=args.budget_s)
    except GameError as exc:
        fail(f"--budget-s: {exc}")


def game_from_position(rules: Rules, text: str | None) -> Game:
    """The game at ``text`` (the empty board when None); a bad position exits with why."""
    if text is None:
        return Game(rules)
    try:
        return Game.from_position(rules, text)
    except GameError as exc:
        fail(f"--position: {exc}")
