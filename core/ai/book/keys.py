"""A position's book key: its smallest image over the board's symmetries, two bits a cell.

The key depends only on the rules' cell numbering (``core.ai.symmetry``), never on a
search's internal layout, so a book outlives changes to the solver. ``BookKeys`` also maps a
move between the position as played and its keyed image (the book stores moves keyed).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ...rules import Rules
from ..symmetry import Permutation, symmetries

__all__ = ["BookKeys", "book_keys"]


class BookKeys:
    """Keys and move mappings for one rules."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.perms: tuple[Permutation, ...] = symmetries(rules)
        self.inverses: tuple[Permutation, ...] = tuple(_inverse(perm) for perm in self.perms)
        self.key_bytes = -(-2 * rules.cells // 8)

    def key(self, cells: Sequence[int]) -> tuple[int, int]:
        """(the key, which symmetry maps ``cells`` onto the keyed image)."""
        marked = [(index, code) for index, code in enumerate(cells) if code]
        best, best_sym = -1, 0
        for sym, perm in enumerate(self.perms):
            key = 0
            for index, code in marked:
                key |= code << 2 * perm[index]
            if best < 0 or key < best:
                best, best_sym = key, sym
        return best, best_sym

    def to_keyed(self, index: int, sym: int) -> int:
        """The cell ``index`` of the played position, seen in its keyed image."""
        return self.perms[sym][index]

    def from_keyed(self, index: int, sym: int) -> int:
        """A cell of the keyed image, seen in the played position."""
        return self.inverses[sym][index]


@lru_cache(maxsize=16)
def book_keys(rules: Rules) -> BookKeys:
    return BookKeys(rules)


def _inverse(perm: Permutation) -> Permutation:
    back = [0] * len(perm)
    for source, image in enumerate(perm):
        back[image] = source
    return tuple(back)
