"""Game.copy: an independent twin in the same state, built without a replay; and the
replay of a record (Game.play_indices) checking each cell like play_index."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core import (
    EndReason,
    Game,
    GameError,
    GameListener,
    GameOver,
    Move,
    NothingToUndo,
    Outcome,
    OutOfBounds,
    Rules,
    encode,
)
from tests.core.engine_helpers import VARIANTS, random_game, strategies_for

CASES = [
    pytest.param(rules, strategy, id=f"{name}-{strategy}")
    for name, rules in VARIANTS.items()
    for strategy in strategies_for(rules)
]

SHARED = {"rules", "_geo", "_scoring", "_setup", "_outcome", "_ended_by_move"}
"""What a copy may share with its original: immutable values. A stateless strategy may be
shared too (it returns itself from ``copy``); anything else a move changes is copied."""


def observed(game: Game) -> tuple[Any, ...]:
    """Everything a caller can see of a game."""
    return (
        game.rules,
        game.win_strategy,
        game.board.copy(),
        game.board.text,
        game.board.empty_count,
        game.ply,
        game.turn,
        game.outcome,
        game.is_over,
        game.ended_off_board,
        game.history,
        game.history_indices,
        game.setup_text,
        game.legal_indices(),
        game.legal_moves(),
        encode(game),
    )


def engine_state(game: Game) -> tuple[Any, ...]:
    """The strategies' inner counters as well (what the next moves are judged by)."""
    live = vars(game._live) if game._live is not None else None
    return (vars(game._wins), live, vars(game._placement), game._placed)


def play_out(game: Game, seed: int) -> list[int]:
    """Random legal moves to the end; the cells played."""
    rng, played = random.Random(seed), []
    while not game.is_over:
        index = rng.choice(game.legal_indices())
        game.play_index(index)
        played.append(index)
    return played


@pytest.mark.parametrize(("rules", "strategy"), CASES)
def test_a_copy_looks_the_same_and_never_moves_with_the_original(
    rules: Rules, strategy: str
) -> None:
    for seed in range(6):
        game = random_game(rules, seed, win_strategy=strategy, max_moves=seed * 3)
        before = observed(game)
        twin = game.copy()
        assert observed(twin) == before and engine_state(twin) == engine_state(game)
        # The copy plays on to the end: the original does not change at all ...
        played = play_out(twin, seed)
        assert observed(game) == before
        # ... and the copy reached exactly what a game replayed from scratch reaches.
        replayed = Game(rules, win_strategy=strategy)
        for index in [*game.history_indices, *played]:
            replayed.play_index(index)
        assert observed(twin) == observed(replayed)
        assert engine_state(twin) == engine_state(replayed)
        # And the other way round: the original plays on, the copy stays where it is.
        if not game.is_over:
            after = observed(twin)
            play_out(game, seed + 100)
            assert observed(twin) == after


def test_undo_on_either_side_leaves_the_other_alone() -> None:
    game = Game.replay(Rules(), [Move(1, 1), Move(0, 0), Move(2, 2)])
    twin = game.copy()
    assert twin.undo() == Move(2, 2) and game.ply == 3 and game.board.at(2, 2) == "X"
    assert game.undo() == Move(2, 2) and game.undo() == Move(0, 0)
    assert twin.ply == 2 and twin.board.at(0, 0) == "O" and twin.turn == "X"
    twin.play(Move(0, 1))
    assert game.history == (Move(1, 1),) and twin.history == (Move(1, 1), Move(0, 0), Move(0, 1))


def test_a_copy_keeps_a_loaded_position_and_an_ending_off_the_board() -> None:
    game = Game.from_position(Rules(), "X../.O./...")
    twin = game.copy()
    assert twin.setup_text == "X../.O./..." and twin.history == ()
    with pytest.raises(NothingToUndo):
        twin.undo()
    twin.resign("O")
    assert twin.outcome == Outcome(EndReason.RESIGNATION, winner="X", loser="O")
    assert game.outcome is None and not game.is_over
    ended = twin.copy()
    assert ended.ended_off_board and ended.outcome == twin.outcome
    with pytest.raises(GameOver):
        ended.play(Move(2, 2))


def test_a_copy_shares_only_what_never_changes_and_leaves_listeners_behind() -> None:
    class Counting(GameListener):
        moves = 0

        def on_move(self, game: Game, move: Move, mark: str) -> None:
            self.moves += 1

    for rules in (
        Rules(),
        Rules(rows=6, cols=7, k=4, gravity=True),
        Rules(rows=4, cols=4, k=3, early_draw=True),
    ):
        game = Game(rules)
        listener = Counting()
        game.add_listener(listener)
        game.play_index(game.legal_indices()[0])
        twin = game.copy()
        assert vars(twin).keys() == vars(game).keys()
        for name, value in vars(game).items():
            if vars(twin)[name] is value and value is not None and name not in SHARED:
                assert value.copy() is value, f"{name} is shared but has state of its own"
        twin.play_index(twin.legal_indices()[0])
        assert listener.moves == 1 and twin._listeners == []


def test_replaying_a_record_checks_every_cell_like_play_index() -> None:
    game = Game()
    game.play_indices([4, 0, 8])
    assert game.history_indices == (4, 0, 8) and game.turn == "O"
    for bad, error in (
        ([4, 4], "occupied"),
        ([9], "out_of_bounds"),
        ([True], "out_of_bounds"),
        (["0"], "out_of_bounds"),
        ([0, 3, 1, 4, 2, 5], "game_over"),
    ):
        with pytest.raises(GameError) as info:
            Game().play_indices(bad)  # type: ignore[arg-type]
        assert info.value.code == error, bad
    with pytest.raises(OutOfBounds):
        Game().play_index(True)
    won = Game()
    won.play_indices([0, 3, 1, 4, 2])
    assert won.outcome is not None and won.outcome.line == (Move(0, 0), Move(0, 1), Move(0, 2))


def test_replaying_a_record_tells_the_listeners_of_each_move() -> None:
    heard: list[Move] = []

    class Recorder(GameListener):
        def on_move(self, game: Game, move: Move, mark: str) -> None:
            heard.append(move)

    game = Game()
    game.add_listener(Recorder())
    game.play_indices([4, 0])
    assert heard == [Move(1, 1), Move(0, 0)]


def test_an_unknown_or_unfit_win_strategy_is_a_game_error_naming_it() -> None:
    with pytest.raises(GameError, match="unknown win strategy 'magic'") as info:
        Game(Rules(), win_strategy="magic")
    assert isinstance(info.value, ValueError)  # callers catching ValueError still do
    with pytest.raises(GameError, match="win strategy 'counter' does not fit"):
        Game(Rules(rows=15, cols=15, k=5), win_strategy="counter")
