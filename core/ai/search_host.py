"""What the solver's two searches (core.ai.value_search, core.ai.distance_search) take from
the solver that builds them: its board layout, tables, move order, symmetry keys and clock.
A Protocol, so that the searches need not import the solver that imports them."""

from __future__ import annotations

from typing import Protocol

from .bitboard import BitLayout
from .table import EntryTable, TranspositionTable

__all__ = ["SearchHost"]


class SearchHost(Protocol):
    layout: BitLayout
    table: EntryTable
    """The value search's table: a TranspositionTable for the pure search."""
    distance_table: TranspositionTable
    order: tuple[int, ...]
    """Every move (a bit), in the fixed order of ``core.ai.ordering.static_order``."""
    countdown: int
    """Nodes left before the next look at the clock (``check_clock``)."""
    sym_tables: tuple[tuple[tuple[int, ...], ...], ...]
    """The board's symmetries, the identity first (empty: keys without symmetry)."""

    def check_clock(self) -> None:
        """Count the nodes searched and raise OutOfBudget when the budget is spent."""

    def canonical_key_of(self, me: int, mask: int) -> tuple[int, int]:
        """The position's key over the symmetries, and the symmetry that maps it there."""

    def map_move(self, move: int, sym: int) -> int:
        """``move`` seen through symmetry ``sym``."""

    def unmap_move(self, move: int, sym: int) -> int:
        """``move`` taken back through symmetry ``sym``."""
