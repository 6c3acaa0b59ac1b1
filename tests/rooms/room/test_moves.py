"""Moves in the sans-I/O room: validation, idempotency, versions, endings."""

from __future__ import annotations

from typing import Any

import pytest

from core import MoveRequest, Rules
from rooms import ErrorCode, Role, Status
from rooms.protocol import encode_room
from rooms.room import Handled, Join, Leave, MoveReply, PlayMove, Room
from rooms.room.events import Moved
from tests.rooms.room.room_helpers import move, new_room, refused, seated
from tests.support.handled import event_of, reply_of


def play(room: Room, conn: str, col: int, row: int | None = None, **kw: Any) -> Handled:
    handled = move(room, conn, col, row, **kw)
    assert handled.event is not None
    return handled


def moved(room: Room, conn: str, col: int, row: int | None = None, **kw: Any) -> Moved:
    return event_of(play(room, conn, col, row, **kw), Moved)


def test_a_move_bumps_the_version_once_and_tells_everything() -> None:
    room, _ = seated()
    handled = play(room, "c0", 1, 1, move_id="m1")
    assert handled.event == Moved(
        version=3,
        mark="X",
        row=1,
        col=1,
        layer=0,
        ply=1,
        turn="O",
        status="playing",
        outcome=None,
        at=102.0,
        clock=None,
        offers={"draw": None, "takeback": None, "rematch": []},
        due=None,
    )
    reply = reply_of(handled, MoveReply)
    assert reply.version == 3 and not reply.duplicate
    assert room.snapshot()["moves"] == [{"mark": "X", "row": 1, "col": 1, "layer": 0, "at": 102.0}]


def test_x_wins_with_the_line_in_the_event_and_the_snapshot() -> None:
    room, _ = seated()
    for conn, row, col in [("c0", 0, 0), ("c1", 1, 0), ("c0", 0, 1), ("c1", 1, 1)]:
        play(room, conn, col, row)
    last = moved(room, "c0", 2, 0)
    outcome = last.outcome
    assert last.status == "finished" and last.turn is None and outcome is not None
    assert outcome["reason"] == "line" and outcome["winner"] == "X"
    assert [(c["row"], c["col"]) for c in outcome["line"]] == [(0, 0), (0, 1), (0, 2)]
    assert room.snapshot()["outcome"] == outcome and room.status is Status.FINISHED
    assert refused(room, PlayMove("c1", MoveRequest(2, 2), room.version, "late")).code is (
        ErrorCode.GAME_OVER
    )


def test_full_board_is_a_draw() -> None:
    room, _ = seated()
    cells = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)]
    for i, (row, col) in enumerate(cells):
        last = moved(room, f"c{i % 2}", col, row)
    assert last.outcome == {"reason": "board_full", "winner": None, "loser": None, "line": []}


def test_misere_line_makes_the_loser() -> None:
    room, _ = seated(Rules(misere=True))
    for conn, row, col in [("c0", 0, 0), ("c1", 1, 0), ("c0", 0, 1), ("c1", 2, 2)]:
        play(room, conn, col, row)
    outcome = moved(room, "c0", 2, 0).outcome
    assert outcome is not None and (outcome["winner"], outcome["loser"]) == ("O", "X")


def test_gravity_drop_names_the_landing_row_and_full_column_is_refused() -> None:
    room, _ = seated(Rules(rows=2, cols=3, k=2, gravity=True))
    assert moved(room, "c0", 0).row == 1
    assert moved(room, "c1", 0).row == 0
    error = refused(room, PlayMove("c0", MoveRequest(0), room.version, "full"))
    assert error.code is ErrorCode.COLUMN_FULL


def test_3d_move_takes_a_layer() -> None:
    room, _ = seated(Rules(rows=4, cols=4, layers=4))
    event = moved(room, "c0", 1, 2, layer=3)
    assert (event.row, event.col, event.layer) == (2, 1, 3)


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        (MoveRequest(col=5, row=0), ErrorCode.OUT_OF_BOUNDS),
        (MoveRequest(col=-1, row=0), ErrorCode.OUT_OF_BOUNDS),
        (MoveRequest(col=1), ErrorCode.MALFORMED_MOVE),
    ],
)
def test_illegal_cells_get_engine_codes(request_: MoveRequest, code: ErrorCode) -> None:
    room, _ = seated()
    assert refused(room, PlayMove("c0", request_, room.version, "bad")).code is code


def test_occupied_and_not_your_turn() -> None:
    room, _ = seated()
    play(room, "c0", 1, 1)
    assert refused(room, PlayMove("c1", MoveRequest(1, 1), room.version, "o")).code is (
        ErrorCode.OCCUPIED
    )
    assert refused(room, PlayMove("c0", MoveRequest(2, 2), room.version, "x")).code is (
        ErrorCode.NOT_YOUR_TURN
    )


def test_who_may_move() -> None:
    room = new_room()
    room.handle(Join("c0", Role.PLAYER), now=1.0)
    assert refused(room, PlayMove("c0", MoveRequest(0, 0), 1, "early")).code is (
        ErrorCode.NOT_STARTED
    )
    room.handle(Join("c1", Role.PLAYER), now=1.0)
    room.handle(Join("s", Role.SPECTATOR), now=1.0)
    assert refused(room, PlayMove("s", MoveRequest(0, 0), room.version, "s")).code is (
        ErrorCode.NOT_A_PLAYER
    )
    assert refused(room, PlayMove("ghost", MoveRequest(0, 0), room.version, "g")).code is (
        ErrorCode.NOT_JOINED
    )


def test_same_move_id_is_applied_once_and_acknowledged_again() -> None:
    room, _ = seated()
    first = reply_of(play(room, "c0", 0, 0, move_id="same"), MoveReply)
    before = encode_room(room)
    again = move(room, "c0", 2, 2, move_id="same", version=0)  # even with an old version
    assert again.event is None and encode_room(room) == before
    assert reply_of(again, MoveReply) == MoveReply("same", first.version, duplicate=True)
    # the same id from another seat is that seat's own move
    assert reply_of(play(room, "c1", 1, 1, move_id="same"), MoveReply).duplicate is False


def test_stale_and_future_versions_are_refused() -> None:
    room, _ = seated()
    old = room.version
    play(room, "c0", 0, 0)
    error = refused(room, PlayMove("c1", MoveRequest(1, 1), old, "stale"))
    assert error.code is ErrorCode.STALE_VERSION and "older" in error.message
    error = refused(room, PlayMove("c1", MoveRequest(1, 1), room.version + 1, "future"))
    assert error.code is ErrorCode.STALE_VERSION and "ahead" in error.message


def test_presence_and_spectators_do_not_make_a_move_stale() -> None:
    room, tokens = seated()
    seen = room.version
    room.handle(Join("s", Role.SPECTATOR), now=1.0)
    room.handle(Leave("c1"), now=1.0)
    room.handle(Join("c1b", Role.PLAYER, None, tokens[1]), now=1.0)
    assert room.version == seen + 3
    assert moved(room, "c0", 0, 0, version=seen).version == seen + 4


def test_two_moves_made_against_one_version_only_one_lands() -> None:
    room, tokens = seated()
    room.handle(Join("c0-tab2", Role.PLAYER, None, tokens[0]), now=1.0)
    version = room.version
    play(room, "c0", 0, 0, version=version, move_id="tab1")
    error = refused(room, PlayMove("c0-tab2", MoveRequest(2, 2), version, "tab2"))
    assert error.code is ErrorCode.STALE_VERSION
    assert room.game.ply == 1
