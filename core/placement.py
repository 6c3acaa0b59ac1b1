"""Where a piece may go: anywhere empty, or (gravity) the lowest empty cell of a column.

Placement rules are strategies found by name, like win rules; a gravity board drops along
the rows in 2D (a move names a column) and along the layers in 3D (a move names a row and
a column, the piece settles on the lowest free layer).
"""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar, Protocol

from .board import EMPTY, Board
from .cell_names import column_name, named_cell, pillar_name
from .errors import CellOccupied, ColumnFull, MalformedMove, OutOfBounds
from .move import MoveRequest
from .rules import Rules

__all__ = ["PLACEMENTS", "FreePlacement", "GravityPlacement", "Placement", "make_placement"]


def _check_inside(rules: Rules, row: int, col: int, layer: int) -> None:
    if not (0 <= row < rules.rows and 0 <= col < rules.cols and 0 <= layer < rules.layers):
        raise OutOfBounds(off_board(rules, row, col, layer))


def off_board(rules: Rules, row: object, col: object, layer: object = 0) -> str:
    """A cell outside the board has no board name: say where it is and what the board spans."""
    flat = not rules.is_3d and not layer
    where = f"row {row}, col {col}" + ("" if flat else f", layer {layer}")
    shape = f"{rules.rows}×{rules.cols}" + (f"×{rules.layers}" if rules.is_3d else "")
    spans = f"rows 0 to {rules.rows - 1}, cols 0 to {rules.cols - 1}" + (
        f", layers 0 to {rules.layers - 1}" if rules.is_3d else ""
    )
    return f"{where} is off the {shape} board ({spans})"


class Placement(Protocol):
    name: ClassVar[str]

    def resolve(self, board: Board, request: MoveRequest) -> int:
        """The cell index a request lands on; raises the typed error when it cannot."""

    def check(self, board: Board, index: int) -> None:
        """Raises unless a piece may be put exactly on ``index`` now."""

    def legal(self, board: Board) -> list[int]:
        """Every cell index a piece may be put on now, in index order."""

    def placed(self, index: int) -> None: ...

    def removed(self, index: int) -> None: ...

    def copy(self) -> Placement:
        """An independent twin for a copied game (a stateless rule may return itself)."""


class FreePlacement:
    name: ClassVar[str] = "free"

    def __init__(self, rules: Rules) -> None:
        self._rules = rules

    def resolve(self, board: Board, request: MoveRequest) -> int:
        rules = self._rules
        if request.row is None:
            raise MalformedMove(f"a move needs a row and a col, got only col {request.col}")
        layer = request.layer or 0
        if rules.is_3d and request.layer is None:
            raise MalformedMove("a move on a 3D board needs a layer")
        _check_inside(rules, request.row, request.col, layer)
        index = rules.index(request.row, request.col, layer)
        self.check(board, index)
        return index

    def check(self, board: Board, index: int) -> None:
        if board.cells[index] != EMPTY:
            raise CellOccupied(f"{named_cell(self._rules, *self._rules.coords(index))} is taken")

    def legal(self, board: Board) -> list[int]:
        return [i for i, code in enumerate(board.cells) if code == EMPTY]

    def placed(self, index: int) -> None:
        return None

    def removed(self, index: int) -> None:
        return None

    def copy(self) -> FreePlacement:
        return self  # stateless: the copied game shares it


class GravityPlacement:
    """Keeps the fill height of every stack, so a drop is O(1)."""

    name: ClassVar[str] = "gravity"

    def __init__(self, rules: Rules) -> None:
        self._rules = rules
        # 2D: a stack is a column, filling from the bottom row up.
        # 3D: a stack is a (row, col) pillar, filling from layer 0 up.
        self._depth = rules.layers if rules.is_3d else rules.rows
        self._heights = [0] * (rules.rows * rules.cols if rules.is_3d else rules.cols)
        self._stack_of, self._level_of = _stack_tables(rules)  # per cell, looked up per move

    def _landing(self, stack: int, height: int) -> int:
        rules = self._rules
        if rules.is_3d:
            row, col = divmod(stack, rules.cols)
            return rules.index(row, col, height)
        return rules.index(rules.rows - 1 - height, stack)

    def resolve(self, board: Board, request: MoveRequest) -> int:
        rules = self._rules
        if rules.is_3d:
            if request.row is None:
                raise MalformedMove("a drop on a 3D gravity board needs a row and a col")
            _check_inside(rules, request.row, request.col, 0)
            stack = request.row * rules.cols + request.col
        else:
            if request.layer:  # a flat board has only layer 0, as with free placement
                raise OutOfBounds(f"layer {request.layer} is off the flat board")
            if not 0 <= request.col < rules.cols:
                raise OutOfBounds(
                    f"col {request.col} is off the {rules.rows}×{rules.cols} board "
                    f"(cols 0 to {rules.cols - 1}, a to {column_name(rules.cols - 1)})"
                )
            stack = request.col
        height = self._heights[stack]
        if height >= self._depth:
            if rules.is_3d:
                prow, pcol = divmod(stack, rules.cols)
                pillar = f"{pillar_name(prow, pcol)} (row {prow}, col {pcol})"
                raise ColumnFull(f"the pillar at {pillar} is full")
            raise ColumnFull(f"column {column_name(request.col)} (col {request.col}) is full")
        index = self._landing(stack, height)
        row, _, layer = rules.coords(index)
        given, lands = (request.layer, layer) if rules.is_3d else (request.row, row)
        if given is not None and given != lands:
            axis = "layer" if rules.is_3d else "row"
            row, col, layer = rules.coords(index)
            asked = (row, col, given) if rules.is_3d else (given, col, layer)
            inside = 0 <= given < (rules.layers if rules.is_3d else rules.rows)
            raise MalformedMove(
                f"with gravity this piece lands on {named_cell(rules, row, col, layer)}, not on "
                + (named_cell(rules, *asked) if inside else f"{axis} {given}")
            )
        return index

    def check(self, board: Board, index: int) -> None:
        stack, height = self._stack_of[index], self._level_of[index]
        rules = self._rules
        if board.cells[index] != EMPTY:
            raise CellOccupied(f"{named_cell(rules, *rules.coords(index))} is taken")
        if height != self._heights[stack]:
            lowest = self._landing(stack, self._heights[stack])
            raise MalformedMove(
                f"with gravity a piece cannot float at {named_cell(rules, *rules.coords(index))}: "
                f"the lowest free cell below it is {named_cell(rules, *rules.coords(lowest))}"
            )

    def legal(self, board: Board) -> list[int]:
        return sorted(
            self._landing(stack, height)
            for stack, height in enumerate(self._heights)
            if height < self._depth
        )

    def placed(self, index: int) -> None:
        self._heights[self._stack_of[index]] += 1

    def removed(self, index: int) -> None:
        self._heights[self._stack_of[index]] -= 1

    def copy(self) -> GravityPlacement:
        state = self.__dict__.copy()  # the rules and the cell tables are shared
        state["_heights"] = self._heights.copy()
        twin = object.__new__(GravityPlacement)
        twin.__dict__ = state  # one dict copied, not filled key by key: a copy per command
        return twin


@lru_cache(maxsize=64)
def _stack_tables(rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For each cell index: its stack id, and its height within that stack (0 at the bottom).

    2D: a stack is a column, filling from the bottom row up; 3D: a (row, col) pillar,
    filling from layer 0 up.
    """
    stacks, levels = [], []
    for index in range(rules.cells):
        row, col, layer = rules.coords(index)
        if rules.is_3d:
            stacks.append(row * rules.cols + col)
            levels.append(layer)
        else:
            stacks.append(col)
            levels.append(rules.rows - 1 - row)
    return tuple(stacks), tuple(levels)


PLACEMENTS: dict[str, type[FreePlacement] | type[GravityPlacement]] = {
    FreePlacement.name: FreePlacement,
    GravityPlacement.name: GravityPlacement,
}


def make_placement(rules: Rules) -> Placement:
    return PLACEMENTS["gravity" if rules.gravity else "free"](rules)
