"""Game records: the plain text export and reading it back (for ``play --replay``)."""

from __future__ import annotations

import pytest

from core import GameError, Move, Rules
from rooms.room.commands import Resign
from rooms.room.record import current_record, format_record, parse_record
from tests.rooms.room.lifecycle_helpers import T0, at, play, room_with


def test_a_finished_game_exports_headers_moves_with_times_and_the_result() -> None:
    room, _ = room_with()
    for i, (conn, row, col) in enumerate(
        [("c0", 1, 1), ("c1", 0, 0), ("c0", 0, 2), ("c1", 2, 0), ("c0", 1, 0), ("c1", 1, 2)]
    ):
        play(room, conn, row, col, T0 + 1.5 * i)
    at(room, Resign("c1"), T0 + 20)
    text = format_record(room.room_id, room.rules, current_record(room))
    lines = text.splitlines()
    assert lines[:4] == [
        '[Event "tictactoe"]',
        '[Room "room0001"]',
        '[Game "1"]',
        '[Date "1970.01.01"]',
    ]
    assert '[X "P0"]' in lines and '[O "P1"]' in lines and '[K "3"]' in lines
    assert '[Gravity "false"]' in lines and '[Result "1-0"]' in lines
    assert '[Termination "resignation"]' in lines
    assert "1. X r1c1 0.000" in lines and "6. O r1c2 7.500" in lines
    assert lines[-1] == "1-0"
    record = parse_record(text)
    assert record.rules == room.rules and record.result == "1-0"
    assert [move for move, _ in record.moves] == list(room.game.history)
    assert record.moves[1][1] == pytest.approx(1.5)
    assert record.replay(2).board.text == "O../.X./..."


def test_3d_and_gravity_records_round_trip() -> None:
    rules = Rules(rows=4, cols=4, layers=4, k=4, gravity=True)
    room, _ = room_with(rules)
    play(room, "c0", 1, 2, T0)
    play(room, "c1", 1, 2, T0 + 1)
    text = format_record(room.room_id, rules, current_record(room))
    assert "1. X r1c2l0 0.000" in text and "2. O r1c2l1 1.000" in text
    assert '[Result "*"]' in text and text.rstrip().endswith("*")
    record = parse_record(text)
    assert record.rules == rules and record.moves[1][0] == Move(1, 2, 1)


def test_names_with_quotes_survive() -> None:
    room, _ = room_with()
    room.seats[0].name = 'Ada "the" \\ Great'
    record = parse_record(format_record("r", room.rules, current_record(room)))
    assert record.headers["X"] == 'Ada "the" \\ Great'


@pytest.mark.parametrize(
    "text,where",
    [
        ('[Rows "3"]\n\n1. X r0c0\n3. O r1c1\n', "line 4"),
        ('[Rows "3"]\n\nnonsense\n', "line 3"),
        ('[Gravity "maybe"]\n', "Gravity"),
        ('[Rows "three"]\n', "Rows"),
        ("\n1. X r0c0\n2. O r0c0\n", "taken"),
    ],
)
def test_bad_records_are_refused_with_a_reason(text: str, where: str) -> None:
    with pytest.raises(GameError) as caught:
        parse_record(text)
    assert where in str(caught.value)
