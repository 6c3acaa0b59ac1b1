"""The books shipped in the package (``data/*.book``), found by rules and read once.

Reading the package's own data file is the engine's only file access: it is done lazily,
on the first question about a board, and the decoded book is kept. A shipped book that
fails its checks (``BadBook``) is an error, never a silent fallback to guessing.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from ...rules import Rules
from .book import Book
from .codec import decode

__all__ = ["SHIPPED", "book_for", "shipped_name"]

SHIPPED: dict[Rules, str] = {
    Rules(5, 6, 4, gravity=True): "connect4-6x5.book",
    Rules(5, 5, 4): "5x5-k4.book",
    Rules(6, 7, 4, gravity=True): "connect4-7x6.book",
}
"""The boards a book ships for, and their files in ``data/``."""


def shipped_name(rules: Rules) -> str | None:
    return SHIPPED.get(rules)


def book_for(rules: Rules) -> Book | None:
    """The shipped book for ``rules``, or None when there is none."""
    name = SHIPPED.get(rules)
    return None if name is None else _load(name, rules)


@lru_cache(maxsize=8)
def _load(name: str, rules: Rules) -> Book | None:
    resource = resources.files(__package__).joinpath("data", name)
    if not resource.is_file():
        return None
    data = decode(resource.read_bytes(), rules)
    return Book(data.rules, data.entries, data.info)
