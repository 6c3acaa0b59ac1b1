"""Board: reading and placing cells, the O(1) empty count, and the text form both ways."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import EMPTY, Board, GameError, OutOfBounds
from tests.core.engine_helpers import PROPERTY_SETTINGS


def test_a_new_board_is_empty() -> None:
    board = Board(3, 4)
    assert len(board) == 12
    assert board.empty_count == 12
    assert not board.is_full
    assert board.counts == (0, 0, 0, 0)
    assert all(board[i] == EMPTY for i in range(12))
    assert board.text == "..../..../...."


def test_place_read_and_clear() -> None:
    board = Board(3, 3)
    board.place(0, 1)
    board.place(4, 2)
    board.place(8, 1)
    assert board.at(0, 0) == "X"
    assert board.at(1, 1) == "O"
    assert board.at(2, 2) == "X"
    assert board.at(0, 1) is None
    assert board[4] == 2
    assert board.empty_count == 6
    assert board.counts == (2, 1, 0, 0)
    board.clear(4)
    assert board.at(1, 1) is None
    assert board.empty_count == 7
    board.clear(4)  # clearing an empty cell changes nothing
    assert board.empty_count == 7


def test_overwriting_a_mark_keeps_the_empty_count() -> None:
    board = Board(2, 2)
    board.place(0, 1)
    board.place(0, 2)
    assert board.empty_count == 3
    assert board.at(0, 0) == "O"


def test_is_full_is_tracked_as_marks_go_on_and_off() -> None:
    board = Board(2, 2)
    for index in range(4):
        assert not board.is_full
        board.place(index, 1 + index % 2)
    assert board.is_full
    assert board.empty_count == 0
    board.clear(3)
    assert not board.is_full


def test_is_full_does_not_look_at_the_cells() -> None:
    """O(1): the empty count is kept on place and clear, never recounted from the cells."""

    class Untouchable(list[int]):
        def __iter__(self):  # type: ignore[no-untyped-def]
            raise AssertionError("is_full iterated the cells")

        def count(self, value: int) -> int:
            raise AssertionError("is_full counted the cells")

    board = Board(19, 19)
    board.place(5, 1)
    board.cells = Untouchable(board.cells)
    assert board.empty_count == 360
    assert not board.is_full


def test_at_checks_bounds_and_layers() -> None:
    board = Board.parse("X./..|../.O")
    assert board.at(0, 0, 0) == "X"
    assert board.at(1, 1, 1) == "O"
    for where in [(2, 0, 0), (0, 2, 0), (0, 0, 2), (-1, 0, 0), (0, -1, 0), (0, 0, -1)]:
        with pytest.raises(OutOfBounds) as caught:
            board.at(*where)
        assert caught.value.code == "out_of_bounds"


@pytest.mark.parametrize(
    "text",
    [
        "X.O/.X./..O",
        ".........",  # one row of nine
        "X/O/.",  # one column
        "XOAB/..../..../....",
        "X.../..../..../....|..../.O../..../....|..../..../..../....|..../..../..../...X",
        ".",
    ],
)
def test_text_parses_and_prints_back(text: str) -> None:
    board = Board.parse(text)
    assert board.text == text
    assert str(board) == text
    assert Board.parse(board.text) == board


def test_text_shape_and_cells() -> None:
    board = Board.parse("X.O/.X./..O")
    assert (board.rows, board.cols, board.layers) == (3, 3, 1)
    assert board.cells == [1, 0, 2, 0, 1, 0, 0, 0, 2]
    cube = Board.parse("X./..|../.O|../..")
    assert (cube.rows, cube.cols, cube.layers) == (2, 2, 3)
    assert cube.cells[0] == 1 and cube.cells[7] == 2


def test_parse_accepts_lowercase_and_surrounding_space() -> None:
    assert Board.parse("  x.o/.X./..o\n") == Board.parse("X.O/.X./..O")


@pytest.mark.parametrize(
    "text",
    ["", " ", "/", "|", "X.O/.X", "X.O/.X./..O|X.", "X.O/.Z./..O", "X-O", "XO/../..|XO/.."],
)
def test_bad_text_is_refused(text: str) -> None:
    with pytest.raises(GameError):
        Board.parse(text)


@pytest.mark.parametrize("text", [None, 3, b"X.O"])
def test_parse_refuses_non_strings(text: object) -> None:
    with pytest.raises(GameError):
        Board.parse(text)  # type: ignore[arg-type]


def test_repr_round_trips_through_eval() -> None:
    board = Board.parse("X.O/.X./..O")
    assert repr(board) == "Board.parse('X.O/.X./..O')"
    assert eval(repr(board)) == board
    cube = Board.parse("X./..|../.O")
    assert eval(repr(cube)) == cube


def test_equality_and_copy() -> None:
    board = Board.parse("X.O/.X./..O")
    twin = board.copy()
    assert twin == board
    twin.place(1, 2)
    assert twin != board  # the copy is independent
    assert board.empty_count == 5 and twin.empty_count == 4
    assert Board(3, 3) != Board(1, 9)  # same cells, other shape
    assert Board(2, 2) != Board(2, 2, 2)
    assert board != "X.O/.X./..O"
    with pytest.raises(TypeError):
        hash(board)


@PROPERTY_SETTINGS
@given(
    st.integers(1, 6),
    st.integers(1, 6),
    st.integers(1, 3),
    st.lists(st.integers(0, 4), min_size=108, max_size=108),
)
def test_text_and_repr_round_trip_any_board(
    rows: int, cols: int, layers: int, codes: list[int]
) -> None:
    board = Board(rows, cols, layers)
    for index in range(len(board)):
        if codes[index]:
            board.place(index, codes[index])
    assert Board.parse(board.text) == board
    assert eval(repr(board)) == board
    assert board.empty_count == board.cells.count(EMPTY)
    assert board.is_full == (EMPTY not in board.cells)
