"""A position given as text, checked and ordered so a ``Game`` can load it as a setup.

``Game.from_position`` puts the marks of a position on an empty board as a setup (they are
not moves and cannot be undone). The position is first checked against the rules
(``core.position``); the marks are then placed in an order the strategies can follow:
bottom-up under gravity, so the stacks grow as in play.
"""

from __future__ import annotations

from .board import EMPTY, Board
from .errors import GameError
from .position import check_counts, check_settled
from .rules import Rules

__all__ = ["checked_position", "setup_order"]


def checked_position(rules: Rules, text: str) -> Board:
    """The board ``text`` shows; a GameError when it cannot arise under ``rules``."""
    board = Board.parse(text)
    if (board.rows, board.cols, board.layers) != (rules.rows, rules.cols, rules.layers):
        raise GameError(
            f"position {text!r} is {board.rows}×{board.cols}×{board.layers}, "
            f"the rules say {rules.rows}×{rules.cols}×{rules.layers}"
        )
    check_counts(rules, board)
    if rules.gravity:
        check_settled(rules, board)
    return board


def setup_order(rules: Rules, board: Board) -> list[int]:
    """The occupied cells of ``board`` in the order to place them."""
    filled = [index for index, code in enumerate(board.cells) if code != EMPTY]
    if not rules.gravity:
        return filled

    def bottom_up(index: int) -> tuple[int, int]:
        row, _, layer = rules.coords(index)
        return (layer, -row)

    return sorted(filled, key=bottom_up)
