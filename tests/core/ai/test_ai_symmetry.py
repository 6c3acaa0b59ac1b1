"""The symmetry groups: the right sizes, closed under composition, and game-preserving."""

from __future__ import annotations

import pytest

from core import Rules
from core.ai import symmetries
from core.geometry import geometry


@pytest.mark.parametrize(
    ("rules", "size"),
    [
        (Rules(3, 3, 3), 8),  # the square: 4 rotations, 4 mirrors
        (Rules(4, 4, 4), 8),
        (Rules(3, 4, 3), 4),  # a rectangle: identity, two mirrors, half turn
        (Rules(6, 7, 4, gravity=True), 2),  # gravity: only the left-right mirror
        (Rules(4, 4, 4, gravity=True), 2),  # even on a square board
        (Rules(4, 4, 4, layers=4), 48),  # the cube
        (Rules(3, 3, 3, layers=3), 48),
        (Rules(4, 4, 4, layers=4, gravity=True), 8),  # 3D gravity: the square floor's group
        (Rules(3, 4, 3, layers=2), 8),  # a box with three different sides
        (Rules(1, 5, 3), 2),  # a single row: the mirror
        (Rules(1, 1, 1), 1),
    ],
    ids=lambda x: x.describe() if isinstance(x, Rules) else str(x),
)
def test_group_sizes(rules: Rules, size: int) -> None:
    perms = symmetries(rules)
    assert len(perms) == size == len(set(perms))
    assert perms[0] == tuple(range(rules.cells))


@pytest.mark.parametrize(
    "rules",
    [Rules(3, 3, 3), Rules(3, 4, 3), Rules(5, 4, 4, gravity=True), Rules(3, 3, 3, layers=3)],
    ids=lambda r: r.describe(),
)
def test_groups_are_closed_and_map_windows_to_windows(rules: Rules) -> None:
    perms = set(symmetries(rules))
    for a in perms:
        for b in perms:
            assert tuple(a[b[i]] for i in range(rules.cells)) in perms
    windows = {frozenset(w) for w in geometry(rules).windows}
    for perm in perms:
        assert {frozenset(perm[c] for c in w) for w in windows} == windows


def test_gravity_symmetries_keep_every_column_a_column() -> None:
    rules = Rules(4, 5, 4, gravity=True)
    (_, mirror) = symmetries(rules)
    for index in range(rules.cells):
        row, col, _ = rules.coords(index)
        assert rules.coords(mirror[index])[:2] == (row, rules.cols - 1 - col)
