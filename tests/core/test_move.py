"""Moves and move requests: the protocol's plain-dict form is parsed with typed errors."""

from __future__ import annotations

from typing import Any

import pytest

from core import MalformedMove, Move, MoveRequest, parse_move


def test_move_value_and_forms() -> None:
    move = Move(1, 2)
    assert move.layer == 0
    assert move.to_dict() == {"row": 1, "col": 2, "layer": 0}
    assert str(move) == "1,2"
    assert str(Move(1, 2, 3)) == "1,2,3"
    assert Move(0, 1) < Move(1, 0)  # ordered by row, then col, then layer
    assert len({Move(1, 2), Move(1, 2, 0), Move(2, 1)}) == 2


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"row": 1, "col": 2}, MoveRequest(col=2, row=1)),
        ({"col": 3}, MoveRequest(col=3)),
        ({"row": 0, "col": 0, "layer": 3}, MoveRequest(col=0, row=0, layer=3)),
        ({"col": 4, "row": None, "layer": None}, MoveRequest(col=4)),
        ({"col": -1, "row": 99}, MoveRequest(col=-1, row=99)),  # bounds are the game's job
    ],
)
def test_parse_move(data: dict[str, Any], expected: MoveRequest) -> None:
    assert parse_move(data) == expected


@pytest.mark.parametrize(
    ("data", "names"),
    [
        (None, "object"),
        ([1, 2], "object"),
        ("1,2", "object"),
        ({}, "col"),
        ({"row": 1}, "col"),
        ({"col": "2"}, "col"),
        ({"col": 1.0}, "col"),
        ({"col": True}, "col"),
        ({"col": 1, "row": "0"}, "row"),
        ({"col": 1, "row": False}, "row"),
        ({"col": 1, "row": 0, "layer": [0]}, "layer"),
    ],
)
def test_malformed_moves_are_refused(data: Any, names: str) -> None:
    with pytest.raises(MalformedMove) as caught:
        parse_move(data)
    assert caught.value.code == "malformed_move"
    assert names in str(caught.value)


@pytest.mark.parametrize(
    "kwargs",
    [{"col": "a"}, {"col": None}, {"col": 1, "row": 2.5}, {"col": 1, "layer": True}],
)
def test_move_request_checks_its_types(kwargs: dict[str, Any]) -> None:
    with pytest.raises(MalformedMove):
        MoveRequest(**kwargs)
