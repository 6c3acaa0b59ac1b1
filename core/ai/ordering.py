"""Move ordering for the solver: which moves to try first, so that cutoffs come early.

A fixed order per rules (the cells on the most k-windows first, then the central ones) and,
high in the tree where a subtree is worth a few microseconds a move (with at most
``EVALUATE_MAX_MOVES`` moves: on a huge board the evaluation would cost more than it
saves), an evaluation: the winning cells a move makes for its player (Pons' "winning
spots"), then that fixed order.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ..geometry import geometry
from .bitboard import BitLayout

__all__ = ["EVALUATE_MAX_MOVES", "move_evaluator", "static_order"]

EVALUATE_MAX_MOVES = 48  # more moves than this: the fixed order (an evaluation costs moves × k)


@lru_cache(maxsize=32)  # per rules (layouts are cached per rules): a bot per move asks again
def static_order(layout: BitLayout) -> tuple[int, ...]:
    """Every cell as a one-bit move, the cells on the most lines first, then central ones."""
    rules = layout.rules
    through = [0] * rules.cells
    for window in geometry(rules).windows:
        for index in window:
            through[index] += 1

    def off_centre(index: int) -> float:
        row, col, layer = rules.coords(index)
        return (
            abs(row - (rules.rows - 1) / 2)
            + abs(col - (rules.cols - 1) / 2)
            + abs(layer - (rules.layers - 1) / 2)
        )

    ranked = sorted(range(rules.cells), key=lambda i: (-through[i], off_centre(i), i))
    return tuple(layout.move(i) for i in ranked)


def move_evaluator(layout: BitLayout) -> Callable[[int, int, int], list[int]]:
    """``f(me, mask, moves)``: ``moves`` best first by the winning cells each makes for
    the mover (Pons' "winning spots"), then by the fixed order."""
    board, winning, order = layout.board, layout.winning_cells, static_order(layout)
    rank = {move: len(order) - i for i, move in enumerate(order)}
    weight = len(order) + 1  # one more winning cell outranks any place in the fixed order

    def evaluate(me: int, mask: int, moves: int) -> list[int]:
        scored = []
        empty = board & ~mask
        for move in order:
            if move & moves:
                threats = winning(me | move, empty ^ move).bit_count()
                scored.append((threats * weight + rank[move], move))
        scored.sort(reverse=True)
        return [move for _, move in scored]

    return evaluate
