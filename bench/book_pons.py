"""An opening book checked against Pascal Pons' Connect Four solver, position by position.

    .venv/bin/python -m bench.book_pons --book FILE [--source URL|DIR] [--build-dir DIR]
                                        [--min-ply P] [--sample N [--seed S]] [--limit N]
                                        [--json]

Pons' solver is built for the book's board by ``bench.pons.build_pons`` (from --source, a
git URL or a checkout). Every book position reached from the empty board
(``core.ai.book.book_lines``) is given to it as its line of columns, in weak mode
(win/draw/loss only), and its answer is compared with the book's value. Pons' solver
applies to 2D gravity boards, k=4, normal play, 4 to 9 columns, 4 rows or more and at
most 64 bits of board; it plays without an opening book.

On a board as large as Connect Four 7×6 its proofs near the opening take seconds to
minutes each (16 s on average for the 60 positions of plies 0 to 5, 0.015 s past ply 6),
so a check there may take ``--min-ply`` (positions from that ply on) and ``--sample`` (that
many of them, drawn with ``--seed``); the report names what was drawn.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core import Game, Rules
from core.ai.book import Book, book_lines, decode

from .pons import PONS_SOURCE, build_pons

__all__ = ["applies", "book_positions", "check_book", "main"]


def applies(rules: Rules) -> bool:
    """Whether Pons' solver plays these rules."""
    return (
        rules.gravity
        and rules.k == 4
        and not rules.misere
        and not rules.early_draw
        and rules.layers == 1
        and 4 <= rules.cols <= 9
        and rules.rows >= 4
        and rules.cols * (rules.rows + 1) <= 64
    )


def book_positions(
    book: Book, *, min_ply: int = 0, sample: int | None = None, seed: int = 0
) -> list[tuple[str, int, int]]:
    """(line of columns from 1, ply, book value) of the book's positions from ``min_ply`` on,
    shallowest first: all of them, or ``sample`` drawn at random with ``seed``."""
    found = [
        (_columns(book, moves), game.ply, _value(book, game))
        for _, moves, game in book_lines(book)
        if game.ply >= min_ply
    ]
    if sample is not None and sample < len(found):
        found = sorted(random.Random(seed).sample(found, sample), key=lambda item: item[1])
    return found


def _columns(book: Book, moves: tuple[int, ...]) -> str:
    return "".join(str(book.rules.coords(index)[1] + 1) for index in moves)


def _value(book: Book, game: Game) -> int:
    entry = book.probe(game.board.cells)
    assert entry is not None
    return entry.value


def check_book(
    binary: Path,
    book: Book,
    limit: int | None = None,
    *,
    min_ply: int = 0,
    sample: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """The book's positions (``book_positions``; the first ``limit`` of them, shallowest
    first) against Pons' solver."""
    cols = book.rules.cols
    chosen = book_positions(book, min_ply=min_ply, sample=sample, seed=seed)[:limit]
    lines = [line for line, _, _ in chosen]
    values = [value for _, _, value in chosen]
    assert all(0 < int(c) <= cols for line in lines for c in line)
    answer = subprocess.run(
        [str(binary), "-w"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    scores: dict[str, int] = {}  # the driver answers each line: score, nodes, microseconds
    for line, out in zip(lines, answer.stdout.splitlines(), strict=False):
        if out != "invalid":
            scores[line] = int(out.split()[0])
    disagree = [
        {"line": line, "book": value, "pons": scores.get(line)}
        for line, value in zip(lines, values, strict=True)
        if line not in scores or (scores[line] > 0) - (scores[line] < 0) != value
    ]
    return {
        "rules": book.rules.describe(),
        "drawn": {"min_ply": min_ply, "sample": sample, "seed": seed, "limit": limit},
        "plies": [chosen[0][1], chosen[-1][1]] if chosen else None,  # shallowest first
        "positions": len(lines),
        "agree": len(lines) - len(disagree),
        "disagree": disagree[:20],
        "disagreements": len(disagree),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.book_pons", description=__doc__)
    parser.add_argument("--source", default=PONS_SOURCE, help="Pons' solver: git URL or folder")
    parser.add_argument("--book", type=Path, required=True, help="the book file to check")
    parser.add_argument("--build-dir", type=Path, default=None, help="where to compile")
    parser.add_argument("--limit", type=int, default=None, help="check only this many")
    parser.add_argument("--min-ply", type=int, default=0, help="positions from this ply on")
    parser.add_argument("--sample", type=int, default=None, help="this many, drawn at random")
    parser.add_argument("--seed", type=int, default=0, help="of --sample's draw")
    parser.add_argument("--json", action="store_true", help="one JSON line")
    args = parser.parse_args(argv)
    data = decode(args.book.read_bytes())
    book = Book(data.rules, data.entries, data.info)
    if not applies(book.rules):
        print(f"Pons' solver does not play {book.rules.describe()}", file=sys.stderr)
        return 2
    build_dir = args.build_dir or Path(tempfile.mkdtemp(prefix="pons-"))
    pons = build_pons(args.source, book.rules.cols, book.rules.rows, build_dir)
    report = check_book(
        pons.binary, book, args.limit, min_ply=args.min_ply, sample=args.sample, seed=args.seed
    )
    print(json.dumps(report, ensure_ascii=False, indent=None if args.json else 2))
    return 0 if report["disagreements"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
