"""Book files for the ``book`` actions: read one checked, write one atomically, find the
shipped one for the rules, and measure how deep a book reaches."""

from __future__ import annotations

import os
from pathlib import Path

from core import Rules
from core.ai.book import BadBook, Book, book_lines, decode, shipped_name

from ...ai_flags import fail

__all__ = ["DATA_DIR", "book_depth", "load_book_file", "shipped_path", "write_atomic"]

DATA_DIR = Path(__file__).resolve().parents[3] / "core" / "ai" / "book" / "data"


def load_book_file(path: Path, rules: Rules | None = None) -> Book:
    """The book in ``path``, checked; exits with why when it cannot be read."""
    try:
        data = decode(path.read_bytes(), rules)
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}")
    except BadBook as exc:
        fail(f"{path}: {exc}")
    return Book(data.rules, data.entries, data.info)


def shipped_path(rules: Rules) -> Path:
    name = shipped_name(rules)
    if name is None:
        fail(f"no shipped book for {rules.describe()}: give --out")
    return DATA_DIR / name


def book_depth(book: Book) -> int:
    """The deepest ply of a position the book holds, reached from the empty board."""
    return max((game.ply for _, _, game in book_lines(book)), default=0)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` so that a crash leaves either the old file or the new one."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)
