"""Game records: the plain text export and reading it back (for ``play --replay``)."""

from __future__ import annotations

import re

import pytest

from core import GameError, Move, Rules
from rooms.room.commands import Resign
from rooms.room.record import current_record, format_record, game_id, parse_record
from rooms.room.state import RoomState
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


def _finished_room(cells: list[tuple[int, int]], rules: Rules | None = None) -> RoomState:
    room, _ = room_with(rules)
    for i, (row, col) in enumerate(cells):
        play(room, f"c{i % 2}", row, col, T0 + i)
    if room.game.outcome is None:
        at(room, Resign("c1"), T0 + 50)
    return room


def test_a_finished_game_has_an_id_of_its_rules_moves_and_result_only() -> None:
    cells = [(1, 1), (0, 0), (0, 2), (2, 0), (1, 0)]
    one, two = _finished_room(cells), _finished_room(cells)
    two.room_id, two.seats[0].name = "elsewhere", "Somebody else"  # not part of the id
    first = game_id(one.rules, current_record(one))
    assert first is not None and re.fullmatch(r"[a-z2-7]{16}", first)
    assert game_id(two.rules, current_record(two)) == first
    other_move = _finished_room([(1, 1), (0, 0), (0, 2), (2, 0), (1, 2)])
    assert game_id(other_move.rules, current_record(other_move)) != first
    other_rules = _finished_room(cells, Rules(rows=4, cols=4, k=3))
    assert game_id(other_rules.rules, current_record(other_rules)) != first
    unfinished, _ = room_with()
    play(unfinished, "c0", 1, 1, T0)
    assert game_id(unfinished.rules, current_record(unfinished)) is None


def test_the_id_travels_in_the_record_and_an_edited_record_is_refused() -> None:
    room = _finished_room([(1, 1), (0, 0), (0, 2)])
    text = format_record(room.room_id, room.rules, current_record(room))
    ident = game_id(room.rules, current_record(room))
    assert f'[GameId "{ident}"]' in text.splitlines()
    assert parse_record(text).headers["GameId"] == ident  # the round trip keeps it
    edited = text.replace("3. X r0c2", "3. X r2c2")
    with pytest.raises(GameError) as caught:
        parse_record(edited)
    assert "GameId" in str(caught.value)
    without = "\n".join(line for line in text.splitlines() if "GameId" not in line)
    assert parse_record(without).moves == parse_record(text).moves  # an id is optional
    unfinished, _ = room_with()
    play(unfinished, "c0", 1, 1, T0)
    assert "GameId" not in format_record("r", unfinished.rules, current_record(unfinished))
