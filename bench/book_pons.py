"""An opening book checked against Pascal Pons' Connect Four solver, position by position.

    .venv/bin/python -m bench.book_pons --book FILE [--source URL|DIR] [--build-dir DIR]
                                        [--limit N] [--json]

Pons' solver is built for the book's board by ``bench.pons.build_pons`` (from --source, a
git URL or a checkout). Every book position reached from the empty board
(``core.ai.book.book_lines``) is given to it as its line of columns, in weak mode
(win/draw/loss only), and its answer is compared with the book's value. Pons' solver
applies to 2D gravity boards, k=4, normal play, 4 to 9 columns, 4 rows or more and at
most 64 bits of board; it plays without an opening book.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core import Rules
from core.ai.book import Book, book_lines, decode

from .pons import PONS_SOURCE, build_pons

__all__ = ["applies", "check_book", "main"]


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


def check_book(binary: Path, book: Book, limit: int | None = None) -> dict[str, Any]:
    """Every book position (up to ``limit``, shallowest first) against Pons' solver."""
    cols = book.rules.cols
    lines: list[str] = []
    values: list[int] = []
    for _, moves, game in book_lines(book):
        entry = book.probe(game.board.cells)
        assert entry is not None
        lines.append("".join(str(book.rules.coords(index)[1] + 1) for index in moves))
        values.append(entry.value)
        if limit is not None and len(lines) >= limit:
            break
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
    parser.add_argument("--json", action="store_true", help="one JSON line")
    args = parser.parse_args(argv)
    data = decode(args.book.read_bytes())
    book = Book(data.rules, data.entries, data.info)
    if not applies(book.rules):
        print(f"Pons' solver does not play {book.rules.describe()}", file=sys.stderr)
        return 2
    build_dir = args.build_dir or Path(tempfile.mkdtemp(prefix="pons-"))
    pons = build_pons(args.source, book.rules.cols, book.rules.rows, build_dir)
    report = check_book(pons.binary, book, args.limit)
    print(json.dumps(report, ensure_ascii=False, indent=None if args.json else 2))
    return 0 if report["disagreements"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
