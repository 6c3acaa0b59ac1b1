"""The terminal rendering of a game: pure text from a Game, checked exactly."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cli.terminal.board_view import MAX_WIDTH, describe_cell, render_board, result_line
from core import Game, Move, MoveRequest, Outcome, Rules


def game_of(rules: Rules, *moves: tuple[int, ...]) -> Game:
    game = Game(rules)
    for move in moves:
        game.play(Move(*move))
    return game


def test_empty_board_has_coordinates() -> None:
    assert render_board(Game()) == "\n".join(
        [
            "    0   1   2",
            " 0  . | . | .",
            "   ---+---+---",
            " 1  . | . | .",
            "   ---+---+---",
            " 2  . | . | .",
        ]
    )


def test_last_move_is_bracketed() -> None:
    text = render_board(game_of(Rules(), (1, 1), (0, 2)))
    assert text.splitlines()[1] == " 0  . | . |[O]"
    assert text.splitlines()[3] == " 1  . | X | ."


def test_completed_line_is_starred_at_the_end() -> None:
    game = game_of(Rules(), (0, 0), (0, 1), (1, 1), (0, 2), (2, 2))
    lines = render_board(game).splitlines()
    assert [lines[1], lines[3], lines[5]] == [" 0 *X*| O | O", " 1  . |*X*| .", " 2  . | . |*X*"]


def test_wide_boards_keep_labels_aligned() -> None:
    lines = render_board(game_of(Rules(rows=11, cols=12, k=5), (10, 11))).splitlines()
    assert lines[0].endswith(" 10  11")
    assert lines[-1] == "10  . | . | . | . | . | . | . | . | . | . | . |[X]"
    assert len(lines[0].rstrip()) <= len(lines[-1])


def test_3d_layers_side_by_side_bottom_first() -> None:
    game = Game(Rules(rows=2, cols=2, layers=2, gravity=True))
    game.play(MoveRequest(row=0, col=1))
    game.play(MoveRequest(row=0, col=1))
    assert render_board(game) == "\n".join(
        [
            "layer 0 (bottom)    layer 1 (top)",
            "    0   1               0   1",
            " 0  . | X            0  . |[O]",
            "   ---+---             ---+---",
            " 1  . | .            1  . | .",
        ]
    )


def test_4x4x4_fits_side_by_side() -> None:
    lines = render_board(Game(Rules(rows=4, cols=4, layers=4))).splitlines()
    assert len(lines) == 1 + 1 + 4 + 3  # titles, labels, rows, separators
    assert max(len(line) for line in lines) <= MAX_WIDTH


def test_too_wide_layers_are_stacked() -> None:
    lines = render_board(game_of(Rules(rows=5, cols=5, layers=5), (4, 4, 4))).splitlines()
    titles = [line.strip() for line in lines if line.strip().startswith("layer")]
    assert titles == ["layer 0 (bottom)", "layer 1", "layer 2", "layer 3", "layer 4 (top)"]
    assert lines.count("") == 4  # a blank line between layers
    assert lines[-1] == " 4  . | . | . | . |[X]"
    assert max(len(line) for line in lines) <= MAX_WIDTH


def test_describe_cell_names_the_layer_only_in_3d() -> None:
    assert describe_cell(Rules(), Move(1, 2)) == "(row 1, col 2)"
    assert describe_cell(Rules(layers=3), Move(1, 2, 0)) == "(row 1, col 2, layer 0)"


# -- result lines --------------------------------------------------------------------------


def test_result_of_a_line_and_a_full_board() -> None:
    won = game_of(Rules(), (0, 0), (1, 0), (0, 1), (1, 1), (0, 2))
    assert result_line(won) == (
        "Result: X wins with 3 in a row at (row 0, col 0) (row 0, col 1) (row 0, col 2)."
    )
    moves = [(1, 1), (0, 0), (2, 2), (0, 2), (0, 1), (2, 1), (1, 0), (1, 2), (2, 0)]
    assert result_line(game_of(Rules(), *moves)) == "Result: draw, the board is full."


def test_result_under_misere() -> None:
    moves = [(0, 0), (1, 1), (0, 1), (2, 2), (0, 2)]
    assert result_line(game_of(Rules(misere=True), *moves)) == (
        "Result: O wins: X completed 3 in a row at "
        "(row 0, col 0) (row 0, col 1) (row 0, col 2) (misère)."
    )
    three = game_of(
        Rules(rows=4, cols=4, k=3, misere=True, players=3),
        *[(0, 0), (3, 3), (3, 0), (1, 1), (3, 2), (0, 3), (2, 2)],  # X, O, A in turn
    )
    assert result_line(three) == (
        "Result: X completed 3 in a row at (row 0, col 0) (row 1, col 1) (row 2, col 2) "
        "and loses (misère); no winner."
    )


def test_result_of_an_early_draw() -> None:
    # 1×5, k=3: once X and O both sit in every window of three, nobody can win
    game = game_of(Rules(rows=1, cols=5, k=3, early_draw=True), (0, 2), (0, 1), (0, 0), (0, 3))
    assert result_line(game) == "Result: draw, nobody can complete a line any more."


def test_results_decided_off_the_board() -> None:
    cases: list[tuple[Callable[[Game], Outcome], str]] = [
        (lambda g: g.resign("X"), "Result: O wins by resignation."),
        (lambda g: g.timeout("O"), "Result: X wins by timeout."),
        (Game.agree_draw, "Result: draw by agreement."),
        (Game.abort, "Result: none, the game was aborted."),
    ]
    for end, expected in cases:
        game = Game()
        end(game)
        assert result_line(game) == expected
    three = Game(Rules(rows=4, cols=4, players=3))
    three.resign("A")
    assert result_line(three) == "Result: A loses by resignation."


def test_result_line_needs_a_finished_game() -> None:
    with pytest.raises(ValueError, match="not over"):
        result_line(Game())
