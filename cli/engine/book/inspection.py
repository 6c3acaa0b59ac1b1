"""``tictactoe book show`` and ``book check``: what a book file holds (its header and
positions per ply), and whether sampled entries are what the solver proves."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from core.ai import UNLIMITED, Solver
from core.ai.book import book_lines

from .files import load_book_file

__all__ = ["register", "run_check", "run_show"]


def register(commands: Any) -> None:
    show = commands.add_parser("show", help="a book's header and depth")
    _add_book_source(show)
    show.set_defaults(func=run_show)
    check = commands.add_parser("check", help="re-prove sampled entries with the solver")
    _add_book_source(check)
    check.add_argument("--sample", type=int, default=20, help="entries to re-prove")
    check.add_argument("--seed", type=int, default=0)
    check.set_defaults(func=run_check)


def _add_book_source(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a book file")


def run_show(args: argparse.Namespace) -> int:
    book = load_book_file(args.file)
    plies: dict[int, int] = {}
    for _, _, game in book_lines(book):
        plies[game.ply] = plies.get(game.ply, 0) + 1
    print(
        json.dumps(
            {
                "rules": book.rules.describe(),
                "entries": len(book),
                **book.info,
                "positions_by_ply": plies,
            },
            ensure_ascii=False,
        )
    )
    return 0


def run_check(args: argparse.Namespace) -> int:
    book = load_book_file(args.file)
    lines = list(book_lines(book))
    rng = random.Random(args.seed)
    sample = rng.sample(lines, min(args.sample, len(lines)))
    solver = Solver(book.rules)
    wrong = 0
    for _, line, game in sorted(sample, key=lambda item: -item[2].ply):
        entry = book.probe(game.board.cells)
        assert entry is not None
        position = solver.start(game, UNLIMITED)
        value = solver.value(position)
        kept = solver.move_value(position, solver.layout.move(entry.move))
        ok = value == entry.value and kept == value
        wrong += not ok
        print(
            json.dumps(
                {
                    "line": list(line),
                    "book": entry.value,
                    "solver": value,
                    "move_keeps": kept == value,
                }
            ),
            flush=True,
        )
    print(json.dumps({"checked": len(sample), "wrong": wrong}))
    return 1 if wrong else 0
