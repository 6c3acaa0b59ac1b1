"""Lines of a board: directions, maximal lines and k-windows, computed once per shape.

Everything here is derived from the rules alone and cached, so strategies share it.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from .move import Move
from .rules import Rules

__all__ = ["Geometry", "geometry"]

Direction = tuple[int, int, int]  # (d_layer, d_row, d_col)


def _directions(is_3d: bool) -> tuple[Direction, ...]:
    """One of each opposite pair: 4 in 2D, 13 in 3D (axes, face and space diagonals)."""
    found: list[Direction] = []
    for d in product((-1, 0, 1), repeat=3):
        if d == (0, 0, 0) or (not is_3d and d[0] != 0):
            continue
        first_nonzero = next(x for x in d if x != 0)
        if first_nonzero > 0:
            found.append((d[0], d[1], d[2]))
    return tuple(found)


class Geometry:
    """Index arithmetic and line tables for one board shape and k."""

    def __init__(self, layers: int, rows: int, cols: int, k: int) -> None:
        self.layers, self.rows, self.cols, self.k = layers, rows, cols, k
        self.cells = layers * rows * cols
        self.moves = tuple(
            Move(row, col, layer)
            for layer, row, col in product(range(layers), range(rows), range(cols))
        )
        """The cell of each index as a Move (index order: layer, row, col), built once per
        shape: a game names every cell it plays, takes back or reports with these."""
        self.directions = _directions(layers > 1)
        self.lines = self._maximal_lines()
        self.windows = tuple(
            line[i : i + k] for line in self.lines for i in range(len(line) - k + 1)
        )

    def inside(self, layer: int, row: int, col: int) -> bool:
        return 0 <= layer < self.layers and 0 <= row < self.rows and 0 <= col < self.cols

    def index(self, layer: int, row: int, col: int) -> int:
        return (layer * self.rows + row) * self.cols + col

    def _maximal_lines(self) -> tuple[tuple[int, ...], ...]:
        """Every maximal straight run of cells, in every direction, of length ≥ 2 (or 1×1)."""
        lines: list[tuple[int, ...]] = []
        for dl, dr, dc in self.directions:
            for layer, row, col in product(range(self.layers), range(self.rows), range(self.cols)):
                if self.inside(layer - dl, row - dr, col - dc):
                    continue  # not the start of a maximal line
                run = []
                cur = (layer, row, col)
                while self.inside(*cur):
                    run.append(self.index(*cur))
                    cur = (cur[0] + dl, cur[1] + dr, cur[2] + dc)
                lines.append(tuple(run))
        return tuple(lines)

    def windows_by_cell(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the ids of the k-windows that contain it."""
        table: list[list[int]] = [[] for _ in range(self.cells)]
        for wid, window in enumerate(self.windows):
            for cell in window:
                table[cell].append(wid)
        return tuple(tuple(ids) for ids in table)


@lru_cache(maxsize=256)
def _geometry(layers: int, rows: int, cols: int, k: int) -> Geometry:
    return Geometry(layers, rows, cols, k)


def geometry(rules: Rules) -> Geometry:
    return _geometry(rules.layers, rules.rows, rules.cols, rules.k)
