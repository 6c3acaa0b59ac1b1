"""Geometry: directions, maximal lines and k-windows, checked against a naive enumeration."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given

from core import Move, Rules, geometry
from tests.core.engine_helpers import PROPERTY_SETTINGS, VARIANTS, naive_windows, small_rules


def _formula_2d(rows: int, cols: int, k: int) -> int:
    """Windows on an m×n board: rows, columns and both diagonals, for k ≥ 2."""
    across, down = max(cols - k + 1, 0), max(rows - k + 1, 0)
    return rows * across + cols * down + 2 * across * down


def test_directions() -> None:
    flat = geometry(Rules()).directions
    assert len(flat) == 4
    assert set(flat) == {(0, 0, 1), (0, 1, 0), (0, 1, 1), (0, 1, -1)}
    cube = geometry(Rules(rows=4, cols=4, layers=4)).directions
    assert len(cube) == 13  # 3 axes, 6 face diagonals, 4 space diagonals
    assert all((-dl, -dr, -dc) not in cube for dl, dr, dc in cube)


@pytest.mark.parametrize(
    ("rows", "cols", "k", "windows"),
    [(3, 3, 3, 8), (6, 7, 4, 69), (15, 15, 5, 572), (19, 19, 5, 1020), (4, 4, 3, 24)],
)
def test_window_counts_match_the_published_figures(
    rows: int, cols: int, k: int, windows: int
) -> None:
    geo = geometry(Rules(rows=rows, cols=cols, k=k))
    assert len(geo.windows) == windows == _formula_2d(rows, cols, k)


@pytest.mark.parametrize(("n", "lines"), [(3, 49), (4, 76)])
def test_cube_has_every_line_including_space_diagonals(n: int, lines: int) -> None:
    rules = Rules(rows=n, cols=n, layers=n)
    geo = geometry(rules)
    assert len(geo.windows) == lines == ((n + 2) ** 3 - n**3) // 2
    last = n - 1
    space_diagonals = [
        {rules.index(i, i, i) for i in range(n)},
        {rules.index(i, last - i, i) for i in range(n)},
        {rules.index(last - i, i, i) for i in range(n)},
        {rules.index(last - i, last - i, i) for i in range(n)},
    ]
    windows = [set(w) for w in geo.windows]
    assert all(diagonal in windows for diagonal in space_diagonals)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_windows_match_naive_enumeration(name: str) -> None:
    rules = VARIANTS[name]
    geo = geometry(rules)
    assert {frozenset(w) for w in geo.windows} == naive_windows(rules)
    assert len(geo.windows) == len(naive_windows(rules))  # no window twice


@PROPERTY_SETTINGS
@given(small_rules())
def test_windows_match_naive_enumeration_on_any_board(rules: Rules) -> None:
    geo = geometry(rules)
    assert {frozenset(w) for w in geo.windows} == naive_windows(rules)
    assert all(len(w) == rules.k for w in geo.windows)


def test_windows_are_straight_and_in_order() -> None:
    rules = Rules(rows=5, cols=6, layers=3, k=3)
    for window in geometry(rules).windows:
        points = [rules.coords(i) for i in window]
        steps = {tuple(b - a for a, b in zip(p, q, strict=True)) for p, q in pairwise(points)}
        assert len(steps) == 1  # one constant step from cell to cell
        assert steps.pop() != (0, 0, 0)


def test_windows_by_cell() -> None:
    geo = geometry(Rules())
    table = geo.windows_by_cell()
    assert [len(ids) for ids in table] == [3, 2, 3, 2, 4, 2, 3, 2, 3]
    for cell, ids in enumerate(table):
        assert all(cell in geo.windows[wid] for wid in ids)


def test_geometry_is_shared_per_shape() -> None:
    assert geometry(Rules(misere=True)) is geometry(Rules())
    assert geometry(Rules(rows=4, cols=4, k=3)) is not geometry(Rules(rows=4, cols=4, k=4))


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(rows=6, cols=7, k=4, gravity=True), Rules(rows=4, cols=4, layers=4)]
)
def test_moves_name_every_cell_in_index_order(rules: Rules) -> None:
    moves = geometry(rules).moves
    assert len(moves) == rules.cells
    assert all(moves[i] == Move(*rules.coords(i)) for i in range(rules.cells))
    assert all(rules.index(m.row, m.col, m.layer) == i for i, m in enumerate(moves))
