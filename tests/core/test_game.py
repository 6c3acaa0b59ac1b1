"""Game: turn order, history, legal moves, errors with stable codes, endings, undo, listeners."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from core import (
    EndReason,
    Game,
    GameError,
    GameListener,
    GameOver,
    MalformedMove,
    Move,
    MoveRequest,
    NothingToUndo,
    NotYourTurn,
    Outcome,
    OutOfBounds,
    Rules,
    RulesError,
    encode,
)

X_WINS = [Move(0, 0), Move(1, 0), Move(0, 1), Move(1, 1), Move(0, 2)]


def test_a_new_game() -> None:
    game = Game()
    assert game.rules == Rules()
    assert game.turn == "X"
    assert game.ply == 0
    assert game.history == ()
    assert game.outcome is None and not game.is_over
    assert len(game.legal_moves()) == 9
    assert game.setup_text is None
    assert repr(game) == "<Game 3×3 k=3 .../.../... X to move>"


def _harmless_move(game: Game) -> Move:
    """The first legal move that does not end the game."""
    for move in game.legal_moves():
        game.play(move)
        ends = game.is_over
        game.undo()
        if not ends:
            return move
    raise AssertionError("every move ends the game")


@pytest.mark.parametrize(
    ("rules", "marks"),
    [
        (Rules(), "XOXOXO"),
        (Rules(rows=4, cols=5, k=3, players=3), "XOAXOAXOA"),
        (Rules(rows=5, cols=5, k=3, players=4), "XOABXOABXOAB"),
    ],
)
def test_turn_order(rules: Rules, marks: str) -> None:
    game = Game(rules)
    seen = []
    for _ in marks:
        seen.append(game.turn)
        game.play(_harmless_move(game), mark=game.turn)
    assert "".join(seen) == marks
    assert [game.board.at(m.row, m.col) for m in game.history] == list(marks)


def test_history_and_legal_moves_follow_the_game() -> None:
    game = Game()
    game.play(Move(1, 1))
    game.play({"row": 0, "col": 2})
    game.play(MoveRequest(col=0, row=2))
    assert game.history == (Move(1, 1), Move(0, 2), Move(2, 0))
    assert game.history_indices == (4, 2, 6)
    assert game.ply == 3
    assert game.turn == "O"
    assert Move(1, 1) not in game.legal_moves()
    assert game.legal_indices() == [0, 1, 3, 5, 7, 8]


def test_play_index_validates_like_play() -> None:
    game = Game()
    assert game.play_index(4) == Move(1, 1)
    for bad in (9, -1, True, "4", 4.0):
        with pytest.raises(OutOfBounds):
            game.play_index(bad)  # type: ignore[arg-type]
    with pytest.raises(GameError) as caught:
        game.play_index(4)
    assert caught.value.code == "occupied"


# -- every error code, and a failed move changes nothing --------------------------------


def _expect(game: Game, code: str, move: Any, **kwargs: Any) -> None:
    before = (encode(game), game.board.copy(), game.turn, game.outcome)
    with pytest.raises(GameError) as caught:
        game.play(move, **kwargs)
    assert caught.value.code == code
    assert caught.value.message and str(caught.value) == caught.value.message
    assert (encode(game), game.board.copy(), game.turn, game.outcome) == before


def test_every_move_error_code() -> None:
    game = Game()
    game.play(Move(1, 1))
    _expect(game, "out_of_bounds", Move(3, 0))
    _expect(game, "out_of_bounds", Move(0, -1))
    _expect(game, "out_of_bounds", {"row": 0, "col": 5})
    _expect(game, "occupied", Move(1, 1))
    _expect(game, "occupied", {"row": 1, "col": 1})
    _expect(game, "not_your_turn", Move(0, 0), mark="X")
    _expect(game, "not_your_turn", Move(0, 0), mark="A")  # not a player in a 2-player game
    _expect(game, "malformed_move", {"row": "1", "col": 0})
    _expect(game, "malformed_move", {"row": 0})
    _expect(game, "malformed_move", "0,0")
    _expect(game, "malformed_move", (0, 0))
    _expect(game, "malformed_move", Move("0", 0))  # type: ignore[arg-type]
    _expect(game, "malformed_move", Move(True, 0))
    connect4 = Game(Rules(rows=6, cols=7, k=4, gravity=True))
    for _ in range(6):
        connect4.play({"col": 2})
    _expect(connect4, "column_full", {"col": 2})
    over = Game.replay(Rules(), X_WINS)
    _expect(over, "game_over", Move(2, 2))
    _expect(over, "game_over", Move(2, 2), mark="O")  # over beats not-your-turn
    with pytest.raises(GameOver):
        over.play_index(8)
    with pytest.raises(NothingToUndo) as caught:
        Game().undo()
    assert caught.value.code == "nothing_to_undo"
    with pytest.raises(RulesError) as rules_error:
        Game(Rules(k=4))
    assert rules_error.value.code == "invalid_rules"


def test_not_your_turn_message_names_both_marks() -> None:
    game = Game()
    with pytest.raises(NotYourTurn, match="it is X's turn, not O's"):
        game.play(Move(0, 0), mark="O")
    assert game.play(Move(0, 0), mark="X") == Move(0, 0)


# -- endings ------------------------------------------------------------------------------


def test_line_ending() -> None:
    game = Game.replay(Rules(), X_WINS)
    assert game.outcome == Outcome(
        EndReason.LINE, winner="X", line=(Move(0, 0), Move(0, 1), Move(0, 2))
    )
    assert game.is_over and not game.ended_off_board
    assert game.legal_moves() == [] and game.legal_indices() == []
    assert game.turn == "O"  # still defined, for display
    assert repr(game).endswith("line>")


def test_board_full_ending() -> None:
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
    game = Game.replay(Rules(), moves)
    assert game.outcome == Outcome(EndReason.BOARD_FULL)
    assert game.outcome.is_draw


def test_no_line_left_ending() -> None:
    # X . O / O X X / X O O with O to... every window holds both marks after 8 moves
    moves = [
        Move(1, 1),
        Move(0, 2),
        Move(0, 0),
        Move(2, 2),
        Move(1, 2),
        Move(1, 0),
        Move(2, 0),
        Move(2, 1),
    ]
    early = Game.replay(Rules(early_draw=True), moves)
    assert early.outcome == Outcome(EndReason.NO_LINE_LEFT)
    assert early.board.empty_count == 1
    assert Game.replay(Rules(), moves).outcome is None  # without the option play goes on


@pytest.mark.parametrize(
    ("end", "expected"),
    [
        (lambda g: g.resign("X"), Outcome(EndReason.RESIGNATION, winner="O", loser="X")),
        (lambda g: g.timeout("O"), Outcome(EndReason.TIMEOUT, winner="X", loser="O")),
        (lambda g: g.abandon("O"), Outcome(EndReason.ABANDONMENT, winner="X", loser="O")),
        (lambda g: g.abandon("O", draw=True), Outcome(EndReason.ABANDONMENT)),
        (lambda g: g.agree_draw(), Outcome(EndReason.AGREEMENT)),
        (lambda g: g.abort(), Outcome(EndReason.ABORTED)),
    ],
    ids=["resignation", "timeout", "abandonment", "abandonment-draw", "agreement", "aborted"],
)
def test_endings_off_the_board(end: Any, expected: Outcome) -> None:
    game = Game()
    game.play(Move(1, 1))
    assert end(game) == expected
    assert game.outcome == expected
    assert game.ended_off_board
    with pytest.raises(GameOver):
        game.play(Move(0, 0))
    with pytest.raises(GameOver, match="cannot be taken back"):
        game.undo()
    with pytest.raises(GameOver, match="already over"):
        game.agree_draw()


def test_with_more_players_a_resignation_names_only_the_loser() -> None:
    game = Game(Rules(rows=4, cols=5, k=3, players=3))
    assert game.resign("O") == Outcome(EndReason.RESIGNATION, winner=None, loser="O")


def test_endings_refuse_strangers() -> None:
    game = Game()
    ends: list[Callable[[], object]] = [
        lambda: game.resign("A"),
        lambda: game.timeout("Z"),
        lambda: game.finish(Outcome(EndReason.RESIGNATION, winner="B")),
    ]
    for end in ends:
        with pytest.raises(GameError, match="not a player"):
            end()
    assert game.outcome is None


def test_a_finished_line_game_cannot_be_resigned() -> None:
    game = Game.replay(Rules(), X_WINS)
    with pytest.raises(GameOver):
        game.resign("O")


# -- undo -------------------------------------------------------------------------------


def test_undo_restores_the_exact_previous_state() -> None:
    game = Game.replay(Rules(), X_WINS[:4])
    before = (game.board.copy(), game.history, game.outcome, game.turn, encode(game))
    game.play(Move(0, 2))
    assert game.outcome is not None
    assert game.undo() == Move(0, 2)
    assert (game.board.copy(), game.history, game.outcome, game.turn, encode(game)) == before
    # the strategy's counters were restored too: the same continuation gives the same game
    game.play(Move(2, 2))
    game.play(Move(1, 2))
    twin = Game.replay(Rules(), [*X_WINS[:4], Move(2, 2), Move(1, 2)])
    assert (
        game.outcome
        == twin.outcome
        == Outcome(EndReason.LINE, winner="O", line=(Move(1, 0), Move(1, 1), Move(1, 2)))
    )


def test_undo_all_the_way_back() -> None:
    game = Game.replay(Rules(rows=6, cols=7, k=4, gravity=True), [{"col": c % 7} for c in range(9)])
    while game.ply:
        game.undo()
    assert encode(game) == encode(Game(game.rules))
    assert game.board == Game(game.rules).board
    with pytest.raises(NothingToUndo):
        game.undo()


# -- listeners ------------------------------------------------------------------------------


class Recorder(GameListener):
    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []

    def on_move(self, game: Game, move: Move, mark: str) -> None:
        self.events.append(("move", move, mark, game.ply))

    def on_undo(self, game: Game, move: Move, mark: str) -> None:
        self.events.append(("undo", move, mark, game.ply))

    def on_end(self, game: Game, outcome: Outcome) -> None:
        self.events.append(("end", outcome.reason, outcome.winner))


def test_listeners_hear_moves_undos_and_ends() -> None:
    game = Game()
    recorder, quiet = Recorder(), GameListener()
    game.add_listener(recorder)
    game.add_listener(quiet)  # the base class ignores everything
    for move in X_WINS[:4]:
        game.play(move)
    game.undo()
    game.play(Move(1, 1))
    game.play(Move(0, 2))
    assert recorder.events == [
        ("move", Move(0, 0), "X", 1),
        ("move", Move(1, 0), "O", 2),
        ("move", Move(0, 1), "X", 3),
        ("move", Move(1, 1), "O", 4),
        ("undo", Move(1, 1), "O", 3),
        ("move", Move(1, 1), "O", 4),
        ("move", Move(0, 2), "X", 5),
        ("end", EndReason.LINE, "X"),
    ]


def test_listeners_hear_endings_off_the_board_and_can_leave() -> None:
    game = Game()
    recorder = Recorder()
    game.add_listener(recorder)
    game.play(Move(0, 0))
    game.remove_listener(recorder)
    game.play(Move(0, 1))
    assert len(recorder.events) == 1
    game.add_listener(recorder)
    game.resign("X")
    assert recorder.events[-1] == ("end", EndReason.RESIGNATION, "O")


def test_a_refused_move_is_not_announced() -> None:
    game = Game()
    recorder = Recorder()
    game.add_listener(recorder)
    with pytest.raises(OutOfBounds):
        game.play(Move(5, 5))
    assert recorder.events == []


# -- replay and copy --------------------------------------------------------------------


def test_replay_accepts_every_move_form() -> None:
    moves: list[Any] = [Move(0, 0), {"row": 1, "col": 0}, MoveRequest(col=1, row=0)]
    game = Game.replay(Rules(), moves)
    assert game.history == (Move(0, 0), Move(1, 0), Move(0, 1))
    with pytest.raises(MalformedMove):
        Game.replay(Rules(), [{"col": 1}])
    assert Game.replay(Rules(), [], win_strategy="connect").win_strategy == "connect"


def test_copy_is_independent_and_keeps_the_strategy() -> None:
    game = Game(Rules(), win_strategy="connect")
    game.add_listener(Recorder())
    game.play(Move(1, 1))
    twin = game.copy()
    assert encode(twin) == encode(game) and twin.board == game.board
    assert twin.win_strategy == "connect"
    twin.play(Move(0, 0))
    assert game.ply == 1 and twin.ply == 2
