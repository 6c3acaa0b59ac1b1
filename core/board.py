"""The board: cells of a rows × cols (× layers) grid, with a text form that round-trips.

Text form: rows top to bottom joined by ``/``, layers joined by ``|``; ``.`` is empty and
marks are X, O, A, B. ``Board.parse("X.O/.X./..O")`` and ``board.text`` are inverses, and
``repr(board)`` evaluates back to an equal board.
"""

from __future__ import annotations

from .errors import GameError, OutOfBounds
from .rules import MARKS

__all__ = ["EMPTY", "Board"]

EMPTY = 0
_SYMBOLS = (".", *MARKS)
_CODES = {symbol: code for code, symbol in enumerate(_SYMBOLS)}


class Board:
    """Mutable grid of small ints (0 empty, 1 = X, 2 = O, ...); the Game owns the mutation."""

    __slots__ = ("_empty", "cells", "cols", "layers", "rows")

    def __init__(self, rows: int, cols: int, layers: int = 1) -> None:
        self.rows, self.cols, self.layers = rows, cols, layers
        self.cells: list[int] = [EMPTY] * (rows * cols * layers)
        self._empty = len(self.cells)

    # -- reading --------------------------------------------------------------------------

    def __getitem__(self, index: int) -> int:
        return self.cells[index]

    def __len__(self) -> int:
        return len(self.cells)

    def at(self, row: int, col: int, layer: int = 0) -> str | None:
        """The mark at a cell, or None when empty; OutOfBounds names the bad coordinates."""
        if not (0 <= row < self.rows and 0 <= col < self.cols and 0 <= layer < self.layers):
            raise OutOfBounds(f"cell (row {row}, col {col}, layer {layer}) is off the board")
        code = self.cells[(layer * self.rows + row) * self.cols + col]
        return MARKS[code - 1] if code else None

    @property
    def empty_count(self) -> int:
        return self._empty

    @property
    def is_full(self) -> bool:
        return self._empty == 0

    @property
    def counts(self) -> tuple[int, ...]:
        """How many marks each of X, O, A, B has on the board."""
        return tuple(self.cells.count(code) for code in range(1, len(MARKS) + 1))

    # -- writing (the Game calls these; they do not check rules) -------------------------

    def place(self, index: int, code: int) -> None:
        if self.cells[index] == EMPTY:
            self._empty -= 1
        self.cells[index] = code

    def clear(self, index: int) -> None:
        if self.cells[index] != EMPTY:
            self._empty += 1
        self.cells[index] = EMPTY

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.rows, other.cols, other.layers = self.rows, self.cols, self.layers
        other.cells = self.cells.copy()
        other._empty = self._empty
        return other

    # -- text form ------------------------------------------------------------------------

    @property
    def text(self) -> str:
        symbols = [_SYMBOLS[code] for code in self.cells]
        layer_size = self.rows * self.cols
        layers = []
        for layer in range(self.layers):
            base = layer * layer_size
            rows = [
                "".join(symbols[base + r * self.cols : base + (r + 1) * self.cols])
                for r in range(self.rows)
            ]
            layers.append("/".join(rows))
        return "|".join(layers)

    @classmethod
    def parse(cls, text: str) -> Board:
        """Board from its text form; a GameError names what is wrong with the text."""
        if not isinstance(text, str) or not text:
            raise GameError(f"board text must be a non-empty string, got {text!r}")
        layers = text.strip().split("|")
        grids = [layer.split("/") for layer in layers]
        rows, cols = len(grids[0]), len(grids[0][0])
        if cols == 0:
            raise GameError(f"board text {text!r} has an empty row")
        for grid in grids:
            if len(grid) != rows or any(len(line) != cols for line in grid):
                raise GameError(f"board text {text!r} is not rectangular")
        board = cls(rows, cols, len(layers))
        for index, symbol in enumerate("".join("".join(grid) for grid in grids)):
            code = _CODES.get(symbol.upper())
            if code is None:
                raise GameError(f"board text {text!r} has an unknown symbol {symbol!r}")
            if code:
                board.place(index, code)
        return board

    def __repr__(self) -> str:
        return f"Board.parse({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.rows, self.cols, self.layers, self.cells) == (
            other.rows,
            other.cols,
            other.layers,
            other.cells,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable
