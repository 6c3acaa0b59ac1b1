"""Early draw: the game ends drawn as soon as no k-window can still be completed by anyone."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given

from core import EndReason, Game, Move, Outcome, Rules, geometry
from core.early_draw import LiveWindows
from tests.core.engine_helpers import (
    PROPERTY_SETTINGS,
    choice_lists,
    every_window_dead,
    random_game,
    small_rules,
)


def test_a_window_dies_when_a_second_player_enters_it() -> None:
    geo = geometry(Rules())
    live = LiveWindows(geo, 2)
    assert live.alive == 8
    live.place(4, 1)  # X in the centre: four windows hold only X
    assert live.alive == 8
    live.place(0, 2)  # O in a corner: kills the diagonal and shares row 0 / col 0
    assert live.alive == 7
    live.place(1, 1)  # X beside O on row 0: row 0 now dead
    assert live.alive == 6
    live.undo(1, 1)
    assert live.alive == 7
    live.undo(0, 2)
    live.undo(4, 1)
    assert live.alive == 8


def test_third_players_count_as_different_players() -> None:
    rules = Rules(rows=3, cols=4, k=4, players=3)
    live = LiveWindows(geometry(rules), 3)
    live.place(rules.index(0, 0), 1)
    live.place(rules.index(0, 1), 3)  # A, not O, kills row 0
    assert live.alive == len(geometry(rules).windows) - 1


def test_the_game_ends_on_the_move_that_kills_the_last_window() -> None:
    rules = Rules(early_draw=True)
    # X . O / O X X / X . O after 7 moves: only column 1 (. X .) is still open, for X alone
    moves = [Move(1, 1), Move(0, 2), Move(0, 0), Move(2, 2), Move(1, 2), Move(1, 0), Move(2, 0)]
    game = Game.replay(rules, moves)
    assert not game.is_over
    game.play(Move(2, 1))  # O blocks it, with a cell still empty
    assert game.outcome == Outcome(EndReason.NO_LINE_LEFT)
    assert game.outcome.is_draw and game.board.empty_count == 1
    game.undo()
    assert not game.is_over
    game.play(Move(0, 1))  # the other block ends it too
    assert game.outcome == Outcome(EndReason.NO_LINE_LEFT)


def test_without_the_option_nothing_ends_early() -> None:
    for seed in range(30):
        game = random_game(Rules(rows=4, cols=4, k=3), seed)
        assert game.outcome is not None
        assert game.outcome.reason in (EndReason.LINE, EndReason.BOARD_FULL)


def _check_against_brute_force(rules: Rules, choices: list[int]) -> None:
    """After every move: over by no_line_left exactly when brute force finds no live window.

    The same moves are played without the option, which must agree until the early end.
    """
    early = Game(rules)
    plain = Game(dataclasses.replace(rules, early_draw=False))
    for choice in choices:
        if early.is_over:
            break
        legal = early.legal_indices()
        assert legal == plain.legal_indices()
        early.play_index(legal[choice % len(legal)])
        plain.play_index(legal[choice % len(legal)])
        dead = every_window_dead(rules, early.board.cells)
        if early.outcome is not None and early.outcome.reason == EndReason.NO_LINE_LEFT:
            assert dead and not early.board.is_full
            assert plain.outcome is None  # the early draw came first
        else:
            assert early.outcome == plain.outcome  # a line or a full board: the same end
            assert early.outcome is not None or not dead


@pytest.mark.parametrize(
    "rules",
    [
        Rules(early_draw=True),
        Rules(rows=4, cols=4, k=3, early_draw=True),
        Rules(rows=6, cols=7, k=4, gravity=True, early_draw=True),
        Rules(rows=5, cols=5, k=4, players=3, early_draw=True),
        Rules(rows=3, cols=3, layers=3, early_draw=True),
    ],
    ids=["3x3", "4x4-k3", "connect4", "3-players", "3d"],
)
def test_random_games_agree_with_brute_force(rules: Rules) -> None:
    import random

    rng = random.Random(7)
    for _ in range(40):
        _check_against_brute_force(rules, [rng.randrange(1000) for _ in range(rules.cells)])


@PROPERTY_SETTINGS
@given(small_rules(early_draw=True), choice_lists(100))
def test_any_game_agrees_with_brute_force(rules: Rules, choices: list[int]) -> None:
    _check_against_brute_force(rules, choices)
