"""The compiled twin of the solver's searches, when it is there (websockets' speedups).

``core/ai/_search.c`` is the same value search as ``core.ai.value_search`` and the same
distance search as ``core.ai.distance_search``, with the tables of ``core.ai.table``,
compiled: same values, distances, best moves and nodes, 10-40 times faster a node.
``pip install`` builds it from source; without a compiler, or with ``TICTACTOE_PURE=1`` in
the environment, or for a board it cannot hold (more than 64 bits in
``core.ai.bitboard``'s layout, e.g. 4×4×4), the solver runs the pure-Python searches.
"""

from __future__ import annotations

import os
from typing import Protocol

from .bitboard import BitLayout
from .search_host import SearchHost

__all__ = ["PURE_ENV", "CompiledSearch", "compiled_available", "compiled_built", "compiled_search"]

PURE_ENV = "TICTACTOE_PURE"
"""Set to anything but "" or "0": every solver runs the pure-Python search."""

MAX_BITS = 64  # the C search keeps a position in two 64-bit words


class CompiledSearch(Protocol):
    """``core.ai._search.ValueSearch``: the searches and the value search's table."""

    capacity: int

    def search(self, me: int, mask: int, alpha: int, beta: int) -> int: ...

    def wins(self, me: int, mask: int, plies: int) -> bool: ...

    def loses(self, me: int, mask: int, plies: int) -> bool: ...

    def get(self, key: int) -> int | None: ...

    def __len__(self) -> int: ...


def _forced_pure() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def compiled_built() -> bool:
    """Whether the compiled searches were built and import here."""
    try:
        from . import _search  # noqa: F401
    except ImportError:
        return False
    return True


def compiled_available() -> bool:
    """Whether solvers may use the compiled searches (built, importable, not switched off)."""
    return not _forced_pure() and compiled_built()


def compiled_search(host: SearchHost, buckets: int, distance_buckets: int) -> CompiledSearch | None:
    """The searches in C for ``host``'s board (tables of ``buckets`` and
    ``distance_buckets``, as ``core.ai.table.bucket_count`` gives), or None: run the pure
    twins."""
    layout = host.layout
    if layout.bits > MAX_BITS or not compiled_available():
        return None
    from ._search import ValueSearch

    perms = [_bit_permutation(layout, tables) for tables in host.sym_tables]
    compiled: CompiledSearch = ValueSearch(
        host,
        layout.bits,
        layout.board,
        layout.bottom,
        layout.gravity,
        layout.misere,
        layout.k,
        layout.shifts,
        [move.bit_length() - 1 for move in host.order],
        perms if len(perms) > 1 else [],
        buckets,
        distance_buckets,
    )
    return compiled


def _bit_permutation(layout: BitLayout, tables: tuple[tuple[int, ...], ...]) -> list[int]:
    """A symmetry as the image bit of every bit (the padding bits stay where they are)."""
    image = list(range(layout.bits))
    for bit in layout.bit_of_index:
        image[bit] = layout.image(tables, 1 << bit).bit_length() - 1
    return image
