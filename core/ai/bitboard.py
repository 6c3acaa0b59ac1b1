"""Positions as two Python ints, for the solver: line tests by shifts, the board's geometry once.

A position is ``(me, mask)``: the side to move's marks and every mark, one bit a cell (the
opponent's marks are ``me ^ mask``). A move is one bit; the child position is
``(me ^ mask, mask | move)``, so a search passes ints down and never undoes anything.

Cells are laid out with one always-empty *padding* bit after each run of the lower axes, as in
the well-known Connect Four bitboard: a column (2D) or a pillar (3D) is a run of bits from the
bottom up, topped by a sentinel. A straight line is then a constant shift in every direction,
and no run of marks can wrap from one edge to the next through the padding, so "k in a row"
and "the cells that would complete one" are a few shifts and ANDs over the whole board, for
any k, in 2D and 3D. Under gravity the playable cells are ``(mask + bottom) & board``: adding
a stack's bottom bit carries up to its lowest empty cell.

``BitLayout`` holds what the rules alone decide (masks, shifts, the cell of each bit, the
symmetries as bit permutations); ``tests/core/ai`` checks it equal to ``core.Game``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from ..geometry import geometry
from ..rules import Rules
from .symmetry import symmetries

__all__ = ["BitLayout", "bit_layout"]

_CHUNK = 8  # bits a lookup table maps at once when a symmetry permutes a board


class BitLayout:
    """The bitboard of one rules: which bit is which cell, and the line tests."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.k = rules.k
        self.gravity = rules.gravity
        self.misere = rules.misere
        if rules.is_3d:  # pillars (row, col) fill from layer 0 up: the layer is the low axis
            low, mid = rules.layers, rules.rows
            stride_mid, stride_high = low + 1, (low + 1) * (mid + 1)

            def bit_of(index: int) -> int:
                row, col, layer = rules.coords(index)
                return col * stride_high + row * stride_mid + layer

            def delta(d: tuple[int, int, int]) -> int:
                return d[2] * stride_high + d[1] * stride_mid + d[0]

        else:  # columns fill from the bottom row up: the height is the low axis
            stride_high = rules.rows + 1

            def bit_of(index: int) -> int:
                row, col, _ = rules.coords(index)
                return col * stride_high + (rules.rows - 1 - row)

            def delta(d: tuple[int, int, int]) -> int:
                return d[2] * stride_high - d[1]

        self.cells = rules.cells
        self.bit_of_index: tuple[int, ...] = tuple(bit_of(i) for i in range(rules.cells))
        self.bits = max(self.bit_of_index) + 1
        self.index_of_bit: dict[int, int] = {b: i for i, b in enumerate(self.bit_of_index)}
        self.board = sum(1 << b for b in self.bit_of_index)
        stacks: dict[int, int] = {}
        for b in self.bit_of_index:  # a stack's bottom is its lowest bit
            base = b - (b % (rules.layers + 1) if rules.is_3d else b % (rules.rows + 1))
            stacks[base] = 1
        self.bottom = sum(1 << base for base in stacks)
        geo = geometry(rules)
        self.shifts: tuple[int, ...] = tuple(
            sorted({abs(delta(d)) for d in geo.directions if _fits(rules, d)})
        )
        self.winning_cells: Callable[[int, int], int] = _winning_cells(self.k, self.shifts)
        self.has_line: Callable[[int], bool] = _has_line(self.k, self.shifts)

    # -- conversions ----------------------------------------------------------------------

    def bits_of_cells(self, cells: Sequence[int]) -> tuple[int, int]:
        """(me, mask) of a position given as cell codes (``Board.cells``), mover by count."""
        marks = [0, 0, 0]
        for index, code in enumerate(cells):
            if code:
                marks[code] |= 1 << self.bit_of_index[index]
        mask = marks[1] | marks[2]
        me = marks[1] if mask.bit_count() % 2 == 0 else marks[2]
        return me, mask

    def index(self, move: int) -> int:
        """The cell index of a one-bit move."""
        return self.index_of_bit[move.bit_length() - 1]

    def move(self, index: int) -> int:
        """The one-bit move of a cell index."""
        return 1 << self.bit_of_index[index]

    def moves(self, bits: int) -> list[int]:
        """The one-bit moves in ``bits``, lowest first."""
        found = []
        while bits:
            low = bits & -bits
            found.append(low)
            bits ^= low
        return found

    # -- rules ----------------------------------------------------------------------------

    def playable(self, mask: int) -> int:
        """The cells the side to move may play (the board full: none)."""
        if self.gravity:
            return (mask + self.bottom) & self.board
        return self.board & ~mask

    def won(self, marks: int) -> bool:
        """Whether ``marks`` hold k in a row."""
        return self.has_line(marks)

    # -- symmetry -------------------------------------------------------------------------

    def symmetry_tables(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per symmetry, per 8-bit chunk of a board, the image of each chunk value."""
        return _symmetry_tables(self.rules)

    def image(self, tables: tuple[tuple[int, ...], ...], bits: int) -> int:
        """``bits`` moved by the symmetry whose chunk ``tables`` these are."""
        out = 0
        for table in tables:
            if not bits:
                break
            out |= table[bits & 255]
            bits >>= _CHUNK
        return out


@lru_cache(maxsize=32)
def bit_layout(rules: Rules) -> BitLayout:
    return BitLayout(rules)


def _fits(rules: Rules, d: tuple[int, int, int]) -> bool:
    """Whether a line of k fits on the board in direction ``d`` (else its shift is useless)."""
    sizes = (rules.layers, rules.rows, rules.cols)
    return all(step == 0 or size >= rules.k for step, size in zip(d, sizes, strict=True))


@lru_cache(maxsize=32)
def _symmetry_tables(rules: Rules) -> tuple[tuple[tuple[int, ...], ...], ...]:
    layout = bit_layout(rules)
    chunks = -(-layout.bits // _CHUNK)
    found = []
    for perm in symmetries(rules):
        target = [0] * (chunks * _CHUNK)
        for index, image in enumerate(perm):
            target[layout.bit_of_index[index]] = 1 << layout.bit_of_index[image]
        tables = []
        for chunk in range(chunks):
            bits = target[chunk * _CHUNK : (chunk + 1) * _CHUNK]
            table = [0] * 256
            for value in range(1, 256):
                low = value & -value
                table[value] = table[value ^ low] | bits[low.bit_length() - 1]
            tables.append(tuple(table))
        found.append(tuple(tables))
    return tuple(found)


def _winning_cells(k: int, shifts: tuple[int, ...]) -> Callable[[int, int], int]:
    """``f(marks, empty)``: the cells of ``empty`` that would complete k in a row of
    ``marks``: for each split of the other k-1 cells into j behind and k-1-j ahead."""
    if k == 1:
        return lambda marks, empty: empty
    if k == 2:

        def two(marks: int, empty: int) -> int:
            found = 0
            for s in shifts:
                found |= (marks << s) | (marks >> s)
            return found & empty

        return two
    if k == 3:

        def three(marks: int, empty: int) -> int:
            found = 0
            for s in shifts:
                b1 = marks << s
                a1 = marks >> s
                found |= (b1 & (marks << 2 * s)) | (a1 & (marks >> 2 * s)) | (b1 & a1)
            return found & empty

        return three
    if k == 4:

        def four(marks: int, empty: int) -> int:
            found = 0
            for s in shifts:
                b1 = marks << s
                b2 = b1 & (marks << 2 * s)
                a1 = marks >> s
                a2 = a1 & (marks >> 2 * s)
                found |= (b2 & (marks << 3 * s)) | (a2 & (marks >> 3 * s)) | (b2 & a1) | (b1 & a2)
            return found & empty

        return four

    def any_k(marks: int, empty: int) -> int:
        found = 0
        for s in shifts:
            behind = [-1]  # behind[j]: the j cells behind are all marks
            ahead = [-1]
            for j in range(1, k):
                behind.append(behind[-1] & (marks << j * s))
                ahead.append(ahead[-1] & (marks >> j * s))
            for j in range(k):
                found |= behind[j] & ahead[k - 1 - j]
        return found & empty

    return any_k


def _has_line(k: int, shifts: tuple[int, ...]) -> Callable[[int], bool]:
    """``f(bits)``: whether ``bits`` hold k in a row (runs doubled up: log k steps)."""
    if k == 1:
        return bool
    if k == 4:

        def four(bits: int) -> bool:
            for s in shifts:
                pairs = bits & (bits >> s)
                if pairs & (pairs >> 2 * s):
                    return True
            return False

        return four
    if k == 3:

        def three(bits: int) -> bool:
            for s in shifts:  # noqa: SIM110 (hot path: a loop costs less than any())
                if bits & (bits >> s) & (bits >> 2 * s):
                    return True
            return False

        return three

    def any_k(bits: int) -> bool:
        for s in shifts:
            run, length = bits, 1  # run: starts of ``length`` marks in a row
            while length * 2 <= k:
                run &= run >> length * s
                length *= 2
            if length < k:
                run &= run >> (k - length) * s
            if run:
                return True
        return False

    return any_k
