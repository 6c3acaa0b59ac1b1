"""Game.from_position: a game from a text position; the turn follows from the counts.

Positions no game can reach are refused.
"""

from __future__ import annotations

import pytest

from core import EndReason, Game, GameError, Move, NothingToUndo, Outcome, Rules

CONNECT4 = Rules(rows=6, cols=7, k=4, gravity=True)


@pytest.mark.parametrize(
    ("rules", "text", "turn"),
    [
        (Rules(), ".../.../...", "X"),
        (Rules(), "X../.../...", "O"),
        (Rules(), "X../.O./...", "X"),
        (Rules(rows=3, cols=4, k=3, players=3), "XOA./..../....", "X"),
        (Rules(rows=3, cols=4, k=3, players=3), "XO../..../....", "A"),
        (Rules(rows=3, cols=4, k=3, players=4), "XOA./..../....", "B"),
        (Rules(rows=3, cols=3, layers=3), "X../.../...|.../.O./...|.../.../...", "X"),
    ],
)
def test_turn_follows_from_the_counts(rules: Rules, text: str, turn: str) -> None:
    game = Game.from_position(rules, text)
    assert game.turn == turn
    assert game.board.text == text
    assert game.history == ()  # the position is a setup, not moves
    assert game.outcome is None
    assert game.setup_text == (None if "X" not in text else text)


def test_the_setup_cannot_be_undone_but_later_moves_can() -> None:
    game = Game.from_position(Rules(), "X../.O./...")
    with pytest.raises(NothingToUndo):
        game.undo()
    game.play(Move(2, 2))
    assert game.history == (Move(2, 2),)
    assert game.undo() == Move(2, 2)
    assert game.board.text == "X../.O./..."


def test_play_continues_from_the_position() -> None:
    for strategy in ("counter", "connect"):
        game = Game.from_position(Rules(), "XX./OO./...", win_strategy=strategy)
        game.play(Move(0, 2))
        assert game.outcome == Outcome(
            EndReason.LINE, winner="X", line=(Move(0, 0), Move(0, 1), Move(0, 2))
        )


def test_a_gravity_position_continues_on_top_of_its_stacks() -> None:
    game = Game.from_position(CONNECT4, "......./......./......./......./...O.../..XX...")
    assert game.turn == "O"
    assert game.play({"col": 3}) == Move(3, 3)
    assert game.play({"col": 4}) == Move(5, 4)


@pytest.mark.parametrize(
    ("rules", "text", "outcome"),
    [
        (
            Rules(),
            "XXX/OO./...",
            Outcome(EndReason.LINE, winner="X", line=(Move(0, 0), Move(0, 1), Move(0, 2))),
        ),
        (Rules(), "XOX/XOO/OXX", Outcome(EndReason.BOARD_FULL)),
        (Rules(early_draw=True), "X.O/OXX/XOO", Outcome(EndReason.NO_LINE_LEFT)),
        (
            Rules(misere=True),
            "XXX/OO./...",
            Outcome(
                EndReason.LINE, winner="O", loser="X", line=(Move(0, 0), Move(0, 1), Move(0, 2))
            ),
        ),
        # X's two lines share the corner it played last
        (
            Rules(),
            "XXX/OOX/OOX",
            Outcome(EndReason.LINE, winner="X", line=(Move(0, 0), Move(0, 1), Move(0, 2))),
        ),
    ],
)
def test_a_finished_position_has_its_outcome(rules: Rules, text: str, outcome: Outcome) -> None:
    game = Game.from_position(rules, text)
    assert game.outcome == outcome
    assert not game.ended_off_board
    assert game.legal_moves() == []


@pytest.mark.parametrize(
    ("rules", "text", "complaint"),
    [
        (Rules(), "XX./.../...", "X has 2 marks but should have 1"),
        (Rules(), "O../.../...", "X has 0 marks"),
        (Rules(), "XA./.../...", "O has 0 marks but should have 1"),  # 2 players only
        (Rules(), "XOA/.../...", "X has 1 marks but should have 2"),
        (Rules(rows=3, cols=4, k=3, players=3), "XOO./..../....", "O has 2"),
        (Rules(), "XXX/OOO/X..", "completed lines for X, O"),
        (Rules(), "XXX/OOO/...", "completed lines for X, O"),
        (Rules(), "XXX/OO./O..", "X has a line but O moved after it"),
        (Rules(), "OOO/XX./XX.", "O has a line but X moved after it"),
        (Rules(rows=4, cols=4, k=3), "XXX./OO.O/XXX./OO..", "not completed by a single move"),
        (CONNECT4, "......./......./......./......./...X.../.O.....", "floating piece at 4,3"),
        (CONNECT4, "......./......./......./......../..XO..../......X", "not rectangular"),
        (Rules(rows=2, cols=2, layers=2, k=2, gravity=True), "../X.|.O/..", "floating"),
        (Rules(), "X../.../", "not rectangular"),
        (Rules(rows=4, cols=4, k=3), "X../.../...", "the rules say 4×4×1"),
        (Rules(), "", "non-empty"),
    ],
)
def test_impossible_positions_are_refused(rules: Rules, text: str, complaint: str) -> None:
    with pytest.raises(GameError, match=complaint.replace("(", r"\(")):
        Game.from_position(rules, text)


def test_a_gravity_line_must_end_on_top_of_a_stack() -> None:
    # X's column 0 line is complete, but O's piece sits on it: X cannot have moved last
    rules = Rules(rows=4, cols=3, k=3, gravity=True)
    with pytest.raises(GameError, match="not completed by a single move"):
        Game.from_position(rules, "O../X../X.O/XXO")
    finished = Game.from_position(rules, ".../X../X.O/X.O")
    assert finished.outcome is not None and finished.outcome.winner == "X"
