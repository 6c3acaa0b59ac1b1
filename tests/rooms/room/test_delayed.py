"""What a delayed game's spectators may see (rooms.room.delayed): the moves and the end after
the cutoff are held back, with the clock, the deadline and the score the end changed; with
nothing held back, the snapshot is the room's own."""

from __future__ import annotations

from dataclasses import replace

from core import MoveRequest
from rooms import Room
from rooms.room import PlayMove, Resign
from rooms.room.config import TimeControl
from rooms.room.delayed import (
    delayed_record,
    delayed_snapshot,
    hidden_times,
    public_record,
    public_snapshot,
)
from tests.rooms.room.room_helpers import seated


def played() -> Room:
    """X b2 at 110, O a1 at 120, X c3 at 130, then O resigns at 140; 5 s of delay."""
    room, _ = seated()
    room.settings = replace(room.settings, time_control=TimeControl(60.0), watch_delay=5.0)
    for at, conn, (row, col) in [
        (110.0, "c0", (1, 1)),
        (120.0, "c1", (0, 0)),
        (130.0, "c0", (2, 2)),
    ]:
        room.handle(PlayMove(conn, MoveRequest(row=row, col=col), room.version, f"m{at}"), now=at)
    room.handle(Resign("c1"), now=140.0)
    return room


def test_the_moves_and_the_end_after_the_cutoff_are_held_back() -> None:
    room = played()
    live = room.snapshot(141.0)
    assert live["status"] == "finished" and live["players"][0]["wins"] == 1
    view = delayed_snapshot(room, 125.0, 141.0)
    assert (view["ply"], view["board"], view["turn"]) == (2, "O../.X./...", "X")
    assert [(m["row"], m["col"]) for m in view["moves"]] == [(1, 1), (0, 0)]
    assert (view["status"], view["outcome"], view["ended_at"]) == ("playing", None, None)
    assert (view["clock"], view["due"], view["rating_change"]) == (None, None, None)
    assert [p["wins"] for p in view["players"]] == [0, 0]
    assert view["version"] == live["version"]
    assert hidden_times(room, 125.0) == [130.0, 140.0]
    ended_hidden = delayed_snapshot(room, 135.0, 141.0)  # every move shown, not the end
    assert (ended_hidden["ply"], ended_hidden["outcome"]) == (3, None)
    assert delayed_snapshot(room, 140.0, 145.0) == room.snapshot(145.0)  # nothing held back
    record = delayed_record(room, 125.0)
    assert len(record["moves"]) == 2 and record["outcome"] is None


def test_the_public_views_are_delayed_by_the_rooms_delay_only() -> None:
    room = played()
    assert public_snapshot(room, 133.0)["ply"] == 2  # 128: after O's move, before X's
    assert len(public_record(room, 133.0)["moves"]) == 2
    room.settings = replace(room.settings, watch_delay=0.0)
    assert public_snapshot(room, 133.0) == room.snapshot(133.0)
    assert len(public_record(room, 133.0)["moves"]) == 3
