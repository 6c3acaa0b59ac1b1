"""Codec: a game encodes to a compact plain dict and decodes back exactly; corruption is refused."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core import EndReason, Game, GameError, Move, Outcome, Rules, decode, encode
from core.codec import FORMAT
from tests.core.engine_helpers import VARIANTS, random_game


def _state(game: Game) -> tuple[Any, ...]:
    return (
        game.rules,
        game.board.copy(),
        game.history,
        game.outcome,
        game.turn,
        game.ply,
        game.setup_text,
        game.ended_off_board,
        game.legal_indices(),
    )


def test_encoding_of_a_fresh_game() -> None:
    assert encode(Game()) == {"format": FORMAT, "rules": Rules().to_dict(), "moves": []}


def test_encoding_lists_cell_indices_in_play_order() -> None:
    game = Game.replay(Rules(), [Move(1, 1), Move(0, 0), Move(2, 2)])
    assert encode(game)["moves"] == [4, 0, 8]
    assert "end" not in encode(game) and "setup" not in encode(game)


def test_an_ending_off_the_board_is_recorded_and_a_line_is_not() -> None:
    resigned = Game.replay(Rules(), [Move(1, 1)])
    resigned.resign("O")
    assert encode(resigned)["end"] == {
        "reason": "resignation",
        "winner": "X",
        "loser": "O",
        "line": [],
    }
    assert _state(decode(encode(resigned))) == _state(resigned)
    won = Game.replay(Rules(), [Move(0, 0), Move(1, 0), Move(0, 1), Move(1, 1), Move(0, 2)])
    assert "end" not in encode(won)  # replaying the moves finds the line again
    assert decode(encode(won)).outcome == won.outcome


def test_a_position_is_recorded_as_its_setup() -> None:
    game = Game.from_position(Rules(), "X../.O./...")
    game.play(Move(2, 2))
    data = encode(game)
    assert data["setup"] == "X../.O./..."
    assert data["moves"] == [8]
    back = decode(data)
    assert _state(back) == _state(game)
    back.undo()
    with pytest.raises(GameError):
        back.undo()  # the setup is not a move


@pytest.mark.parametrize("name", list(VARIANTS))
def test_round_trip_through_json_for_every_variant(name: str) -> None:
    rules = VARIANTS[name]
    for seed in range(5):
        for game in (random_game(rules, seed), random_game(rules, seed, max_moves=seed * 3)):
            data = json.loads(json.dumps(encode(game)))
            back = decode(data)
            assert _state(back) == _state(game)
            assert encode(back) == encode(game)


def test_decode_can_force_a_win_strategy() -> None:
    game = decode(encode(Game()), win_strategy="connect")
    assert game.win_strategy == "connect"


GOOD = encode(Game.replay(Rules(), [Move(1, 1), Move(0, 0)]))


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {},
        {**GOOD, "format": 2},
        {key: value for key, value in GOOD.items() if key != "rules"},
        {key: value for key, value in GOOD.items() if key != "moves"},
        {**GOOD, "rules": {"rows": 25}},
        {**GOOD, "rules": {"size": 3}},
        {**GOOD, "rules": "3x3"},
        {**GOOD, "moves": "4,0"},
        {**GOOD, "moves": [4, 4]},  # occupied
        {**GOOD, "moves": [4, 9]},  # off the board
        {**GOOD, "moves": [4, "0"]},
        {**GOOD, "moves": [4, None]},
        {**GOOD, "moves": [4, True]},  # a bool is not a cell index
        {**GOOD, "moves": [0, 3, 1, 4, 2, 5]},  # a move after the game was won
        {**GOOD, "setup": "XX./.../..."},  # X has two marks, O none
        {**GOOD, "setup": "X.."},  # wrong shape
        {**GOOD, "end": {"reason": "checkmate"}},
        {**GOOD, "end": {"reason": "resignation", "loser": "Z"}},
        {**GOOD, "end": "resigned"},
        {**GOOD, "moves": [0, 3, 1, 4, 2], "end": {"reason": "agreement"}},  # over already
    ],
)
def test_corrupted_records_are_refused(data: Any) -> None:
    with pytest.raises(GameError):
        decode(data)


def test_an_end_record_round_trips_every_off_board_reason() -> None:
    for outcome in (
        Outcome(EndReason.TIMEOUT, winner="O", loser="X"),
        Outcome(EndReason.ABANDONMENT),
        Outcome(EndReason.AGREEMENT),
        Outcome(EndReason.ABORTED),
    ):
        game = Game()
        game.finish(outcome)
        assert decode(encode(game)).outcome == outcome


def test_rules_are_decoded_once_but_never_confused_with_lookalikes() -> None:
    """Decoding keeps the rules it built (Rules are immutable, so games share them), keyed
    by each value's type: after ``rows: 3`` was decoded, ``rows: 3.0`` and ``rows: true``
    are still refused, every time."""
    first, second = decode(GOOD), decode(json.loads(json.dumps(GOOD)))
    assert first.rules is second.rules
    for rules in ({"rows": 3.0, "cols": 3}, {"rows": 3, "cols": True}, {"rows": [3]}):
        for _ in range(2):
            with pytest.raises(GameError):
                decode({**GOOD, "rules": rules})
    assert decode({**GOOD, "rules": {"cols": 3, "rows": 3}}).rules == first.rules


def test_the_encoded_rules_are_a_fresh_dict_every_time() -> None:
    record = encode(Game())
    record["rules"]["rows"] = 19
    assert encode(Game())["rules"] == Rules().to_dict()
