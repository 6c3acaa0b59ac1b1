"""The book's positions reached from the empty board, each with a line of moves leading there.

Breadth first, through every legal move whose position the book holds, so each position
comes with its ply and a shortest line (cell indices) to it: what a check against another
solver replays, and how deep a book reaches.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...game import Game
from .book import Book

__all__ = ["book_lines"]


def book_lines(book: Book) -> Iterator[tuple[int, tuple[int, ...], Game]]:
    """(key, line, game at the end of the line) for every reachable book position."""
    keys = book.keys
    start = Game(book.rules)
    first, _ = keys.key(start.board.cells)
    if first not in book.entries:
        return
    seen = {first}
    level: list[tuple[tuple[int, ...], Game]] = [((), start)]
    yield first, (), start
    while level:
        deeper: list[tuple[tuple[int, ...], Game]] = []
        for line, game in level:
            for index in game.legal_indices():
                child = game.copy()
                child.play_index(index)
                if child.is_over:
                    continue
                key, _ = keys.key(child.board.cells)
                if key in seen or key not in book.entries:
                    continue
                seen.add(key)
                deeper.append(((*line, index), child))
                yield key, (*line, index), child
        level = deeper
