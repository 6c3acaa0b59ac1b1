"""Walks over a book the tests share."""

from __future__ import annotations

from collections.abc import Iterator

from core import Game
from core.ai.book import Book

__all__ = ["first_player_strategy"]


def first_player_strategy(book: Book) -> Iterator[Game]:
    """The positions of the book's strategy for the first player (X), each once (by its
    book key): from the empty board, X's book move, then every reply of O; each X
    position's walk ends at a leaf (X's move leads out of the book) or at the game's end."""
    keys = book.keys
    seen: set[int] = set()
    stack = [Game(book.rules)]
    while stack:
        game = stack.pop()
        key, _ = keys.key(game.board.cells)
        if key in seen:
            continue
        seen.add(key)
        entry = book.probe(game.board.cells)
        assert entry is not None, f"X's position {game.board.text} is not in the book"
        yield game
        after = game.copy()
        after.play_index(entry.move)
        if after.is_over or book.probe(after.board.cells) is None:
            continue
        seen.add(keys.key(after.board.cells)[0])
        yield after
        for reply in after.legal_indices():
            child = after.copy()
            child.play_index(reply)
            if not child.is_over:
                stack.append(child)
