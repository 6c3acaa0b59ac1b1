"""The symmetries of a board that preserve the game, as permutations of cell indices.

A symmetry permutes the axes of equal length and may mirror any axis; both map lines to
lines, so a position and its images have the same game value. Gravity pins its own axis
(pieces fall down the rows in 2D and down the layers in 3D): it may be neither swapped nor
mirrored. That gives 8 symmetries for a square, 4 for a rectangle, 2 (the left-right
mirror) for a gravity board and 48 for a cube.

The solver's transposition table stores one entry per class of equivalent positions,
keyed by the canonical form: the smallest image of the position over the group.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations, product

from ..rules import Rules

__all__ = ["Permutation", "canonical_form", "symmetries"]

Permutation = tuple[int, ...]
"""``perm[i]`` is the cell that cell ``i`` is sent to."""


def symmetries(rules: Rules) -> tuple[Permutation, ...]:
    """Every symmetry of the board under ``rules``, the identity first, no two alike."""
    return _symmetries(rules.layers, rules.rows, rules.cols, rules.gravity)


@lru_cache(maxsize=64)
def _symmetries(layers: int, rows: int, cols: int, gravity: bool) -> tuple[Permutation, ...]:
    sizes = (layers, rows, cols)
    pinned = (0 if layers > 1 else 1) if gravity else None  # the axis pieces fall along
    found: dict[Permutation, None] = {}
    for axes in permutations(range(3)):  # axes[j]: which source axis becomes axis j
        if any(sizes[axes[j]] != sizes[j] for j in range(3)):
            continue
        if pinned is not None and axes[pinned] != pinned:
            continue
        for flips in product((False, True), repeat=3):
            if pinned is not None and flips[pinned]:
                continue
            found.setdefault(_permutation(sizes, axes, flips), None)
    identity = tuple(range(layers * rows * cols))
    ordered = [identity, *(perm for perm in found if perm != identity)]
    return tuple(ordered)


def _permutation(
    sizes: tuple[int, int, int], axes: Sequence[int], flips: Sequence[bool]
) -> Permutation:
    layers, rows, cols = sizes
    perm = []
    for source in product(range(layers), range(rows), range(cols)):
        image = [source[axes[j]] for j in range(3)]
        for j in range(3):
            if flips[j]:
                image[j] = sizes[j] - 1 - image[j]
        perm.append((image[0] * rows + image[1]) * cols + image[2])
    return tuple(perm)


def canonical_form(rules: Rules, cells: Sequence[int]) -> bytes:
    """The smallest image of a position over the board's symmetries (slow; a reference)."""
    images = []
    for perm in symmetries(rules):
        image = [0] * len(cells)
        for index, code in enumerate(cells):
            image[perm[index]] = code
        images.append(bytes(image))
    return min(images)
