"""The protocol's client side without I/O (client.wire, client.mirror, client.links): what a
join and a move say, what answers what, and the room mirrored from its messages."""

from __future__ import annotations

import random

import pytest

from client import RoomLink, RoomMirror, Seat, TournamentLink, move_message
from client.wire import is_answer_to, is_room_version, retry_pause

SNAPSHOT = {
    "rules": {"rows": 3, "cols": 3, "k": 3},
    "moves": [],
    "players": [{"mark": "X", "name": "Ada", "connected": True}],
    "status": "waiting",
    "outcome": None,
    "version": 1,
}


def test_a_player_joins_with_a_key_until_a_token_then_resumes_with_it() -> None:
    seat = Seat("player", "Ada", player={"id": "p1", "secret": "s"})
    first = seat.join_message()
    assert first["join_key"] == seat.join_key and len(first["join_key"]) >= 22
    assert first["player"] == {"id": "p1", "secret": "s"} and "token" not in first
    assert seat.join_message() == first, "every join until the token: the same key"
    seat.welcomed({"type": "welcome", "mark": "X", "token": "t0k", "version": 3})
    resume = seat.join_message()
    assert resume == {"type": "join", "as": "player", "name": "Ada", "token": "t0k",
                      "last_version": 3}  # fmt: skip
    seat.saw({"type": "move_ok", "version": 9})  # may come before its event: not seen yet
    seat.saw({"type": "moved", "version": 4})
    seat.saw({"type": "presence", "version": 2})
    assert seat.version == 4 and seat.mark == "X"


def test_a_spectator_has_no_key_and_a_bad_role_is_refused() -> None:
    assert Seat("spectator").join_message() == {"type": "join", "as": "spectator"}
    with pytest.raises(ValueError, match="'referee'"):
        Seat("referee")


def test_a_bot_joins_with_its_token_alone_and_no_repr_shows_it() -> None:
    bot = Seat("player", "Robo", bot_token="tb1.x.secret")
    assert bot.join_key is None and "secret" not in repr(bot)
    bot.welcomed({"type": "welcome", "mark": "O", "token": None, "version": 4})
    assert bot.join_message() == {
        "type": "join", "as": "player", "name": "Robo", "bot_token": "tb1.x.secret",
        "last_version": 4,
    }  # fmt: skip
    with pytest.raises(ValueError, match="alone"):
        Seat("player", bot_token="tb1.x.secret", join_key="k" * 22)


def test_moves_and_their_answers() -> None:
    assert move_message("m1", 7, 1, 2) == {
        "type": "move", "row": 1, "col": 2, "version": 7, "move_id": "m1",
    }  # fmt: skip
    assert move_message("m2", 7, None, 3) == {
        "type": "move", "col": 3, "version": 7, "move_id": "m2",
    }  # fmt: skip
    assert move_message("m3", 0, 1, 2, layer=3)["layer"] == 3
    assert is_answer_to({"type": "move_ok", "move_id": "m1"}, "m1")
    assert not is_answer_to({"type": "move_ok", "move_id": "m2"}, "m1")
    assert is_answer_to({"type": "error", "code": "occupied", "ref": "m1"}, "m1")
    assert is_answer_to({"type": "ack", "ref": "r1", "version": 3}, "r1")
    assert not is_answer_to({"type": "moved", "ref": "m1"}, "m1"), "events answer nothing"
    assert is_room_version({"type": "state", "version": 3})
    assert not is_room_version({"type": "move_ok", "version": 3})
    assert not is_room_version({"type": "moved", "version": True})


def test_the_retry_pause_spreads_the_servers_retry_after() -> None:
    rng = random.Random(1)
    pauses = [retry_pause({"code": "unavailable", "retry_after": 2}, rng) for _ in range(100)]
    assert all(2.0 <= pause <= 4.0 for pause in pauses) and max(pauses) - min(pauses) > 1
    assert all(0.1 <= retry_pause({"code": "busy"}, rng) <= 0.3 for _ in range(100))


def test_the_mirror_follows_the_events_in_version_order() -> None:
    room = RoomMirror(mark="X")
    room.take({"type": "welcome", "version": 1, "state": SNAPSHOT})
    joined = {"mark": "O", "name": "Bo", "connected": True}
    note = room.take({"type": "player_joined", "version": 2, "player": joined,
                      "status": "playing"})  # fmt: skip
    assert note == "Bo joined as O." and room.status == "playing"
    moved = {"type": "moved", "version": 3, "mark": "X", "row": 1, "col": 1,
             "status": "playing", "outcome": None, "clock": {"running": "O"},
             "offers": {"draw": "X", "takeback": None, "rematch": []}}  # fmt: skip
    assert room.take(moved) is None and room.take(dict(moved, row=2)) is None
    assert room.moves == [{"mark": "X", "row": 1, "col": 1, "layer": None}], "once"
    assert room.clock == {"running": "O"} and room.offers["draw"] == "X" and room.turn is None
    assert room.take({"type": "presence", "version": 5, "mark": "O", "connected": False})
    assert room.gap and room.players[1]["connected"] is False, "version 4 was skipped"
    assert room.take({"type": "presence", "version": 6, "mark": "X", "connected": True}) is None
    room.take({"type": "state", "version": 1, "state": SNAPSHOT, "ref": "s1"})
    assert room.moves == [] and room.version == 1 and not room.gap, "a snapshot replaces all"


def test_links() -> None:
    link = TournamentLink.parse("https://h/t/ab c")
    assert link == TournamentLink("https://h", "ab c")
    assert link.ws_url("p 1") == "wss://h/ws/t/ab%20c?player=p%201"
    assert link.api_path == "/api/tournaments/ab%20c"
    assert TournamentLink.parse("http://h/r/abc") is None
    with pytest.raises(ValueError, match="names no room"):
        _ = RoomLink("http://h", None).ws_url
