"""Cells in the engine's messages are named as the browser's board labels them.

The board labels columns a, b, ... from the left and rows 1, 2, ... from the top, and a 3D
board's layers L1, L2, ... from the bottom (static/js/model/rules.js ``cellName``). Every move error
that is about a cell of the board says that name once, with the wire's 0-based numbers in
brackets, and never says the same thing twice.
"""

from __future__ import annotations

import re

import pytest

from core import (
    CellOccupied,
    ColumnFull,
    Game,
    GameError,
    MalformedMove,
    Move,
    OutOfBounds,
    Rules,
    cell_name,
    column_name,
    named_cell,
)

TIC = Rules()
CONNECT4 = Rules(rows=6, cols=7, k=4, gravity=True)
CUBE = Rules(rows=4, cols=4, layers=4, k=4)
CUBE_GRAVITY = Rules(rows=4, cols=4, layers=4, k=4, gravity=True)


def test_names_follow_the_board_labels() -> None:
    assert cell_name(TIC, 0, 0) == "a1"  # the top-left cell
    assert cell_name(TIC, 2, 1) == "b3"  # bottom row of 3, second column
    assert cell_name(Rules(rows=19, cols=19, k=5), 18, 18) == "s19"
    assert cell_name(CUBE, 1, 2, 0) == "L1 c2"  # the bottom layer is L1
    assert cell_name(CUBE, 1, 2, 3) == "L4 c2"
    assert column_name(6) == "g"
    assert named_cell(TIC, 1, 1) == "b2 (row 1, col 1)"
    assert named_cell(CUBE, 0, 3, 2) == "L3 d1 (row 0, col 3, layer 2)"


def _refusal(game: Game, move: Move | dict[str, int]) -> GameError:
    with pytest.raises(GameError) as caught:
        game.play(move)
    return caught.value


def _occupied_free(rules: Rules, row: int, col: int, layer: int) -> GameError:
    game = Game(rules)
    game.play(Move(row, col, layer))
    return _refusal(game, Move(row, col, layer))


def _cases() -> list[tuple[type[GameError], GameError, str]]:
    """(expected type, the error the engine raised, the board name it must carry)."""
    out: list[tuple[type[GameError], GameError, str]] = []
    # a taken cell, on a flat board and in 3D, by exact cell and by request
    out.append((CellOccupied, _occupied_free(TIC, 2, 1, 0), "b3 (row 2, col 1)"))
    game = Game(TIC)
    game.play({"row": 0, "col": 2})
    out.append((CellOccupied, _refusal(game, {"row": 0, "col": 2}), "c1 (row 0, col 2)"))
    out.append((CellOccupied, _occupied_free(CUBE, 3, 0, 2), "L3 a4 (row 3, col 0, layer 2)"))
    # gravity, flat: a full column, a taken cell, a floating cell, a wrong landing row
    game = Game(CONNECT4)
    for _ in range(6):
        game.play({"col": 2})
    out.append((ColumnFull, _refusal(game, {"col": 2}), "column c (col 2)"))
    out.append((CellOccupied, _refusal(game, Move(5, 2)), "c6 (row 5, col 2)"))
    out.append((MalformedMove, _refusal(game, Move(2, 4)), "e3 (row 2, col 4)"))
    out.append(
        (
            MalformedMove,
            _refusal(game, {"col": 4, "row": 0}),
            "e6 (row 5, col 4), not on e1 (row 0, col 4)",
        )
    )
    # gravity, 3D: a full pillar, a wrong landing layer
    game = Game(CUBE_GRAVITY)
    for _ in range(4):
        game.play({"row": 1, "col": 3})
    out.append((ColumnFull, _refusal(game, {"row": 1, "col": 3}), "d2 (row 1, col 3)"))
    out.append(
        (
            MalformedMove,
            _refusal(game, {"row": 0, "col": 0, "layer": 2}),
            "L1 a1 (row 0, col 0, layer 0)",
        )
    )
    return out


@pytest.mark.parametrize(("kind", "error", "name"), _cases())
def test_every_cell_error_names_the_cell_as_the_board_does(
    kind: type[GameError], error: GameError, name: str
) -> None:
    message = error.message
    assert type(error) is kind
    assert name in message, message
    # the wire's numbers appear only in brackets, after the board's name of the cell
    outside_brackets = re.sub(r"\([^)]*\)", "", message)
    assert not re.search(r"\b(row|col|layer) \d", outside_brackets), message
    assert message == message.strip()
    _never_repeats(outside_brackets)


def _never_repeats(message: str) -> None:
    words = re.findall(r"[a-z]{2,}", message.lower())  # words, not cell names
    phrases = [" ".join(words[i : i + 3]) for i in range(len(words) - 2)]
    assert len(phrases) == len(set(phrases)), f"a phrase repeats in {message!r}"
    assert not message[:1].isupper() or re.match(r"L\d", message), (
        message
    )  # lowercase, as house style


@pytest.mark.parametrize(
    ("rules", "move", "text"),
    [
        (TIC, Move(3, 0), "row 3, col 0 is off the 3×3 board (rows 0 to 2, cols 0 to 2)"),
        (
            TIC,
            {"row": -1, "col": 1},
            "row -1, col 1 is off the 3×3 board (rows 0 to 2, cols 0 to 2)",
        ),
        (CONNECT4, {"col": 7}, "col 7 is off the 6×7 board (cols 0 to 6, a to g)"),
        (
            CUBE,
            {"row": 0, "col": 0, "layer": 4},
            "row 0, col 0, layer 4 is off the 4×4×4 board "
            "(rows 0 to 3, cols 0 to 3, layers 0 to 3)",
        ),
    ],
)
def test_a_cell_off_the_board_is_told_by_the_numbers_sent(
    rules: Rules, move: Move | dict[str, int], text: str
) -> None:
    """Off the board there is no board name: the message says what was sent and the span."""
    error = _refusal(Game(rules), move)
    assert isinstance(error, OutOfBounds)
    assert error.message == text
    _never_repeats(error.message)


def test_a_finished_game_says_why_in_plain_words() -> None:
    game = Game(TIC)
    for row, col in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:
        game.play(Move(row, col))
    error = _refusal(game, Move(2, 2))
    assert error.code == "game_over"
    assert error.message == "the game is over: a line was completed"
