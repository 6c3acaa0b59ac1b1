"""Placement: free boards take any empty cell; gravity boards stack columns (2D) or pillars (3D)."""

from __future__ import annotations

from typing import Any

import pytest

from core import (
    CellOccupied,
    ColumnFull,
    Game,
    GameError,
    MalformedMove,
    Move,
    MoveRequest,
    OutOfBounds,
    Rules,
)

CONNECT4 = Rules(rows=6, cols=7, k=4, gravity=True)
CUBE_GRAVITY = Rules(rows=4, cols=4, layers=4, k=4, gravity=True)


def test_gravity_stacks_from_the_bottom_row() -> None:
    game = Game(CONNECT4)
    assert game.play({"col": 3}) == Move(5, 3)
    assert game.play({"col": 3}) == Move(4, 3)
    assert game.play(MoveRequest(col=3)) == Move(3, 3)
    assert game.play({"col": 0}) == Move(5, 0)
    assert game.board.text == "......./......./......./...X.../...O.../O..X..."


def test_gravity_accepts_the_landing_row_and_refuses_others() -> None:
    game = Game(CONNECT4)
    assert game.play({"col": 2, "row": 5}) == Move(5, 2)
    with pytest.raises(
        MalformedMove, match=r"lands on c5 \(row 4, col 2\), not on c1 \(row 0, col 2\)"
    ):
        game.play({"col": 2, "row": 0})
    with pytest.raises(
        MalformedMove,
        match=r"cannot float at e1 \(row 0, col 4\): the lowest free cell below it is e6",
    ):
        game.play(Move(0, 4))  # an exact cell must be the landing cell too
    assert game.play(Move(4, 2)) == Move(4, 2)


def test_a_full_column_is_refused_and_the_others_stay_open() -> None:
    game = Game(CONNECT4)
    for _ in range(6):
        game.play({"col": 0})  # X and O alternate up one column: no line
    with pytest.raises(ColumnFull, match=r"column a \(col 0\) is full") as caught:
        game.play({"col": 0})
    assert caught.value.code == "column_full"
    with pytest.raises(CellOccupied):
        game.play(Move(0, 0))
    assert [m.col for m in game.legal_moves()] == [1, 2, 3, 4, 5, 6]
    assert game.play({"col": 1}) == Move(5, 1)


def test_legal_moves_are_the_landing_cells() -> None:
    game = Game(CONNECT4)
    assert game.legal_moves() == [Move(5, c) for c in range(7)]
    game.play({"col": 6})
    assert Move(4, 6) in game.legal_moves() and Move(5, 6) not in game.legal_moves()
    assert len(game.legal_moves()) == 7


def test_gravity_in_3d_fills_pillars_from_layer_zero() -> None:
    game = Game(CUBE_GRAVITY)
    assert game.play({"row": 1, "col": 2}) == Move(1, 2, 0)
    assert game.play({"row": 1, "col": 2}) == Move(1, 2, 1)
    assert game.play({"row": 1, "col": 2, "layer": 2}) == Move(1, 2, 2)
    with pytest.raises(
        MalformedMove, match=r"lands on L4 c2 \(row 1, col 2, layer 3\), not on L1 c2"
    ):
        game.play({"row": 1, "col": 2, "layer": 0})
    game.play({"row": 1, "col": 2})
    with pytest.raises(ColumnFull, match=r"the pillar at c2 \(row 1, col 2\) is full"):
        game.play({"row": 1, "col": 2})
    with pytest.raises(MalformedMove, match="needs a row and a col"):
        game.play({"col": 2})
    assert len(game.legal_moves()) == 15


@pytest.mark.parametrize(
    ("rules", "request_", "error"),
    [
        (CONNECT4, {"col": 7}, OutOfBounds),
        (CONNECT4, {"col": -1}, OutOfBounds),
        (CONNECT4, {"col": 0, "layer": 1}, OutOfBounds),  # a flat board has only layer 0
        (CUBE_GRAVITY, {"row": 4, "col": 0}, OutOfBounds),
        (Rules(), {"row": 3, "col": 0}, OutOfBounds),
        (Rules(), {"row": 0, "col": -1}, OutOfBounds),
        (Rules(), {"row": 0, "col": 0, "layer": 1}, OutOfBounds),
        (Rules(), {"col": 0}, MalformedMove),  # no gravity: a row is needed
        (Rules(rows=3, cols=3, layers=3), {"row": 0, "col": 0}, MalformedMove),  # and a layer
        (Rules(rows=3, cols=3, layers=3), {"row": 0, "col": 0, "layer": 3}, OutOfBounds),
    ],
)
def test_placement_errors(rules: Rules, request_: dict[str, Any], error: type[GameError]) -> None:
    game = Game(rules)
    with pytest.raises(error) as caught:
        game.play(request_)
    assert caught.value.code == error.code
    assert game.ply == 0 and game.board.empty_count == rules.cells  # nothing changed


def test_free_placement_refuses_an_occupied_cell() -> None:
    game = Game(Rules(rows=3, cols=3, layers=3))
    game.play({"row": 1, "col": 1, "layer": 2})
    with pytest.raises(CellOccupied, match=r"row 1, col 1, layer 2") as caught:
        game.play(Move(1, 1, 2))
    assert caught.value.code == "occupied"


def test_undo_lowers_the_stack() -> None:
    game = Game(CONNECT4)
    game.play({"col": 4})
    game.play({"col": 4})
    game.undo()
    assert game.play({"col": 4}) == Move(4, 4)  # lands where the undone piece was
