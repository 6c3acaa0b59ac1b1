"""Game.redo: replays what undo took back, in order, until a new move clears it."""

from __future__ import annotations

from typing import Any

import pytest

from core import (
    CellOccupied,
    EndReason,
    Game,
    GameListener,
    GameOver,
    Move,
    NothingToRedo,
    Outcome,
    Rules,
    encode,
)

X_WINS = [Move(0, 0), Move(1, 0), Move(0, 1), Move(1, 1), Move(0, 2)]


def test_undo_then_redo_restores_the_exact_state() -> None:
    game = Game.replay(Rules(), X_WINS[:4])
    before = encode(game)
    assert game.undo() == Move(1, 1) and game.undo() == Move(0, 1)
    assert game.can_redo
    assert game.redo() == Move(0, 1)  # the latest taken back comes first
    assert game.redo() == Move(1, 1)
    assert encode(game) == before and game.turn == "X"
    assert not game.can_redo


def test_redo_replays_the_winning_move_and_its_outcome() -> None:
    game = Game.replay(Rules(), X_WINS)
    game.undo()
    assert game.outcome is None
    game.redo()
    assert game.outcome == Outcome(
        EndReason.LINE, winner="X", line=(Move(0, 0), Move(0, 1), Move(0, 2))
    )


def test_a_new_move_clears_what_was_taken_back() -> None:
    game = Game.replay(Rules(), X_WINS[:3])
    game.undo()
    game.undo()
    game.play(Move(2, 2))
    assert not game.can_redo
    with pytest.raises(NothingToRedo) as caught:
        game.redo()
    assert caught.value.code == "nothing_to_redo"
    assert caught.value.message == "there is no taken-back move to play again"
    assert game.history == (Move(0, 0), Move(2, 2))


def test_play_index_and_play_indices_clear_it_too() -> None:
    game = Game()
    game.play_index(4)
    game.undo()
    game.play_index(0)
    assert not game.can_redo
    game.undo()
    game.play_indices([8])
    assert not game.can_redo


def test_a_refused_move_keeps_what_was_taken_back() -> None:
    game = Game.replay(Rules(), X_WINS[:2])
    game.undo()
    with pytest.raises(CellOccupied):
        game.play(Move(0, 0))
    assert game.can_redo and game.redo() == Move(1, 0)


def test_nothing_to_redo_on_a_fresh_game_and_after_redoing_all() -> None:
    with pytest.raises(NothingToRedo):
        Game().redo()
    game = Game.replay(Rules(), X_WINS[:1])
    game.undo()
    game.redo()
    with pytest.raises(NothingToRedo):
        game.redo()


def test_no_redo_once_the_game_ended_off_the_board() -> None:
    game = Game.replay(Rules(), X_WINS[:2])
    game.undo()
    game.finish(Outcome(EndReason.RESIGNATION, winner="X", loser="O"))
    assert not game.can_redo
    with pytest.raises(GameOver):
        game.redo()


def test_gravity_redo_lands_in_the_same_cell() -> None:
    game = Game(Rules(rows=6, cols=7, k=4, gravity=True))
    for col in (3, 3, 3):
        game.play({"col": col})
    before = encode(game)
    for _ in range(3):
        game.undo()
    assert [game.redo() for _ in range(3)] == [Move(5, 3), Move(4, 3), Move(3, 3)]
    assert encode(game) == before


def test_a_copy_keeps_its_own_redo() -> None:
    game = Game.replay(Rules(), X_WINS[:2])
    game.undo()
    twin = game.copy()
    twin.play(Move(2, 2))
    assert not twin.can_redo
    assert game.can_redo and game.redo() == Move(1, 0)


def test_listeners_hear_a_redo_as_a_move() -> None:
    heard: list[tuple[Any, ...]] = []

    class Recorder(GameListener):
        def on_move(self, game: Game, move: Move, mark: str) -> None:
            heard.append(("move", move, mark))

        def on_undo(self, game: Game, move: Move, mark: str) -> None:
            heard.append(("undo", move, mark))

    game = Game.replay(Rules(), X_WINS[:1])
    game.add_listener(Recorder())
    game.undo()
    game.redo()
    assert heard == [("undo", Move(0, 0), "X"), ("move", Move(0, 0), "X")]
