"""Scoring: completing a line wins, or under misère loses."""

from __future__ import annotations

from core import EndReason, Game, Move, Rules

X_ROW = [Move(0, 0), Move(1, 0), Move(0, 1), Move(1, 1), Move(0, 2)]
O_ROW = [Move(0, 0), Move(1, 0), Move(0, 1), Move(1, 1), Move(2, 2), Move(1, 2)]


def test_normal_completer_wins() -> None:
    outcome = Game.replay(Rules(), X_ROW).outcome
    assert outcome is not None
    assert (outcome.reason, outcome.winner, outcome.loser) == (EndReason.LINE, "X", None)
    outcome = Game.replay(Rules(), O_ROW).outcome
    assert outcome is not None and (outcome.winner, outcome.loser) == ("O", None)


def test_misere_completer_loses_and_the_other_player_wins() -> None:
    outcome = Game.replay(Rules(misere=True), X_ROW).outcome
    assert outcome is not None
    assert (outcome.reason, outcome.winner, outcome.loser) == (EndReason.LINE, "O", "X")
    assert outcome.line == (Move(0, 0), Move(0, 1), Move(0, 2))
    outcome = Game.replay(Rules(misere=True), O_ROW).outcome
    assert outcome is not None and (outcome.winner, outcome.loser) == ("X", "O")
    assert not outcome.is_draw


def test_misere_with_three_players_names_only_the_loser() -> None:
    rules = Rules(rows=3, cols=4, k=3, players=3, misere=True)
    # X row 0; O and A play rows 1 and 2 without lines
    moves = [Move(0, 0), Move(1, 0), Move(2, 0), Move(0, 1), Move(1, 1), Move(2, 2), Move(0, 2)]
    outcome = Game.replay(rules, moves).outcome
    assert outcome is not None
    assert (outcome.winner, outcome.loser) == (None, "X")
    assert not outcome.is_draw


def test_misere_draw_is_still_a_draw() -> None:
    # X O X / X O O / O X X: full board, no line
    moves = [
        Move(0, 0),
        Move(0, 1),
        Move(0, 2),
        Move(1, 1),
        Move(1, 0),
        Move(1, 2),
        Move(2, 1),
        Move(2, 0),
        Move(2, 2),
    ]
    outcome = Game.replay(Rules(misere=True), moves).outcome
    assert outcome is not None
    assert outcome.reason == EndReason.BOARD_FULL and outcome.is_draw
