"""Whether a position given as text can arise in play, and which line (if any) ended it.

``Game.from_position`` loads a position as a setup. These checks refuse what no game under
the rules can reach: wrong mark counts for the turn order, floating pieces under gravity,
and completed lines the game would have stopped before (lines of two players, a line of a
player who did not move last, lines that no single last move completes together).
"""

from __future__ import annotations

from .board import EMPTY, Board
from .errors import GameError
from .geometry import Geometry
from .move import Move
from .rules import MARKS, Rules
from .wins import scan

__all__ = ["check_counts", "check_settled", "ending_line"]


def check_counts(rules: Rules, board: Board) -> None:
    """X moves first, then O, ...: each player has ceil((filled - seat) / players) marks."""
    counts = board.counts
    filled = sum(counts)
    for code in range(1, len(MARKS) + 1):
        expected = -(-(filled - (code - 1)) // rules.players) if code <= rules.players else 0
        expected = max(expected, 0)
        if counts[code - 1] != expected:
            raise GameError(
                f"position {board.text!r} cannot arise: {MARKS[code - 1]} has "
                f"{counts[code - 1]} marks but should have {expected} after {filled} moves"
            )


def _above(rules: Rules, index: int) -> int | None:
    """The cell stacked right on top of ``index`` under gravity, None at the top."""
    row, col, layer = rules.coords(index)
    if rules.is_3d:
        return rules.index(row, col, layer + 1) if layer + 1 < rules.layers else None
    return rules.index(row - 1, col) if row > 0 else None


def check_settled(rules: Rules, board: Board) -> None:
    """Under gravity every piece rests on the floor or on another piece."""
    for index, code in enumerate(board.cells):
        above = _above(rules, index)
        if code == EMPTY and above is not None and board.cells[above] != EMPTY:
            where = Move(*rules.coords(above))
            raise GameError(f"position {board.text!r} has a floating piece at {where}")


def ending_line(rules: Rules, geo: Geometry, board: Board) -> tuple[int, tuple[int, ...]] | None:
    """(code, cells) of the completed line that ended the game here, or None if there is none.

    The game stops at the first completed line, so every completed window must belong to
    the player who moved last and share a cell that move could have filled.
    """
    lines = scan(geo, board.cells)
    if not lines:
        return None
    text = board.text
    codes = sorted({code for code, _ in lines})
    if len(codes) > 1:
        marks = ", ".join(MARKS[c - 1] for c in codes)
        raise GameError(f"position {text!r} has completed lines for {marks}")
    code = codes[0]
    last_mover = (sum(board.counts) - 1) % rules.players + 1
    if code != last_mover:
        raise GameError(
            f"position {text!r} cannot arise: {MARKS[code - 1]} has a line but "
            f"{MARKS[last_mover - 1]} moved after it"
        )
    common = set(lines[0][1]).intersection(*(window for _, window in lines[1:]))
    if rules.gravity:  # the last piece played is on top of its stack
        common = {c for c in common if (above := _above(rules, c)) is None or not board[above]}
    if not common:
        raise GameError(
            f"position {text!r} cannot arise: its lines were not completed by a single move"
        )
    return lines[0]
