"""Opening books: proven values for the positions a live search cannot prove in a move's time.

- ``book_for(rules)``: the book shipped for these rules (``data/``), checked on loading, or
  None. ``Book.probe(cells)`` gives a position's value and a move keeping it;
  ``Book.move_values(cells)`` each legal move's value, where the book knows it.
- ``BookBuilder``: builds a book with the solver, for the first player's strategy, the
  second's or both (``BookSide``), resumably (``tictactoe book build``).
- ``encode`` / ``decode``: the versioned, checksummed file format (``codec.py``).
"""

from __future__ import annotations

from .book import Book, BookEntry
from .build import (
    DEFAULT_LEAF_NODES,
    BookBuilder,
    BookSide,
    BuildProgress,
    SideMismatch,
    Snapshot,
)
from .codec import FORMAT_VERSION, BadBook, BookData, decode, encode
from .keys import BookKeys, book_keys
from .shelf import SHIPPED, book_for, shipped_name
from .walk import book_lines

__all__ = [
    "DEFAULT_LEAF_NODES",
    "FORMAT_VERSION",
    "SHIPPED",
    "BadBook",
    "Book",
    "BookBuilder",
    "BookData",
    "BookEntry",
    "BookKeys",
    "BookSide",
    "BuildProgress",
    "SideMismatch",
    "Snapshot",
    "book_for",
    "book_keys",
    "book_lines",
    "decode",
    "encode",
    "shipped_name",
]
