"""An opening book: proven values of the positions a solver cannot prove within a move's budget.

A book maps a position (by its key over the board's symmetries, ``keys.py``) to its value
for the side to move and a move that keeps that value. ``probe`` answers for a position,
``move_values`` for each legal move of one (a move's value is the negated value of the
position it leads to, or the game's end). Every entry was proven by the solver when the
book was built (``build.py``), so a book answer is a proof, like the solver's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...rules import Rules
from ..bitboard import bit_layout
from .codec import unpack
from .keys import BookKeys, book_keys

__all__ = ["Book", "BookEntry"]


@dataclass(frozen=True, slots=True)
class BookEntry:
    """A book position: ``value`` for the side to move (1 win, 0 draw, -1 loss) and a
    cell index ``move`` (of the position as played) that keeps it."""

    value: int
    move: int


class Book:
    def __init__(self, rules: Rules, entries: Mapping[int, int], info: Mapping[str, Any]) -> None:
        self.rules = rules
        self.entries = entries
        self.info = dict(info)
        self.keys: BookKeys = book_keys(rules)

    def __len__(self) -> int:
        return len(self.entries)

    def probe(self, cells: Sequence[int]) -> BookEntry | None:
        """The book's entry for the position ``cells`` (``Board.cells``), if it has one."""
        key, sym = self.keys.key(cells)
        packed = self.entries.get(key)
        if packed is None:
            return None
        value, move = unpack(packed)
        return BookEntry(value, self.keys.from_keyed(move, sym))

    def move_values(self, cells: Sequence[int]) -> dict[int, int]:
        """The value, for the mover, of each legal move (by cell index) that the book
        answers: a move ending the game, or one leading to a book position."""
        layout = bit_layout(self.rules)
        me, mask = layout.bits_of_cells(cells)
        code = 1 if mask.bit_count() % 2 == 0 else 2
        found: dict[int, int] = {}
        child = list(cells)
        for bit in layout.moves(layout.playable(mask)):
            index = layout.index(bit)
            if layout.won(me | bit):
                found[index] = -1 if layout.misere else 1
                continue
            if (mask | bit) == layout.board:
                found[index] = 0
                continue
            child[index] = code
            entry = self.probe(child)
            child[index] = 0
            if entry is not None:
                found[index] = -entry.value
        return found
