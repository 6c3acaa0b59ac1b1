"""Seats, spectators and presence in the sans-I/O room."""

from __future__ import annotations

import base64
import re

import pytest

from core import Rules
from rooms import ErrorCode, Role, Status
from rooms.protocol import encode_room
from rooms.room import Join, JoinReply, Leave
from rooms.room.events import PlayerJoined, Presence, Spectators
from tests.rooms.room.room_helpers import new_room, refused, seated
from tests.support.handled import event_of, reply_of


def test_new_room_is_waiting_at_version_zero() -> None:
    room = new_room()
    snap = room.snapshot()
    assert (snap["status"], snap["version"], snap["players"], snap["spectators"]) == (
        "waiting",
        0,
        [],
        0,
    )
    assert snap["board"] == ".../.../..." and snap["turn"] == "X" and snap["outcome"] is None


def test_players_take_seats_in_order_and_get_distinct_long_tokens() -> None:
    room = new_room()
    first = room.handle(Join("a", Role.PLAYER, "Ada"), now=1.0)
    assert first.event == PlayerJoined(
        version=1,
        player={
            "mark": "X",
            "name": "Ada",
            "connected": True,
            "bot": None,
            "away_since": None,
            "left": False,
            "claimable_at": None,
            "wins": 0,
            "draws": 0,
            "player_id": None,
            "bot_account": False,
        },
        status="waiting",
        clock=None,
        offers={"draw": None, "takeback": None, "rematch": []},
        due=None,
    )
    second = room.handle(Join("b", Role.PLAYER, None), now=2.0)
    joined = event_of(second, PlayerJoined)
    assert joined.status == "playing"
    assert re.fullmatch(r"Guest [0-9]{4}", joined.player["name"])  # not "Player O"
    assert room.status is Status.PLAYING and room.version == 2
    tokens = [reply_of(first, JoinReply).token, reply_of(second, JoinReply).token]
    assert tokens[0] != tokens[1]
    for token in tokens:
        assert token is not None
        assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) >= 16
        assert token not in encode_room(room), "a token must be stored only as a hash"
        assert token not in str(room.snapshot())


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_players_seat_in_mark_order(players: int) -> None:
    room, _ = seated(Rules(rows=5, cols=5, k=3, players=players))
    assert [p["mark"] for p in room.snapshot()["players"]] == ["X", "O", "A", "B"][:players]
    assert room.status is Status.PLAYING


def test_full_room_refuses_a_new_player_and_offers_spectating() -> None:
    room, _ = seated()
    error = refused(room, Join("late", Role.PLAYER, "Late"))
    assert error.code is ErrorCode.ROOM_FULL and "spectator" in error.message


def test_spectators_count_and_hold_no_token() -> None:
    room, _ = seated()
    handled = room.handle(Join("s1", Role.SPECTATOR), now=3.0)
    assert handled.event == Spectators(version=3, count=1, due=None)
    assert reply_of(handled, JoinReply) == JoinReply(Role.SPECTATOR, None, None)
    room.handle(Join("s2", Role.SPECTATOR), now=3.0)
    assert room.snapshot()["spectators"] == 2
    error = refused(room, Join("s3", Role.SPECTATOR, token="whatever"))
    assert error.code is ErrorCode.BAD_MESSAGE


def test_token_resumes_the_same_seat_from_a_new_connection() -> None:
    room, tokens = seated()
    room.handle(Leave("c1"), now=4.0)
    away = room.snapshot()["players"][1]
    assert away["connected"] is False and away["away_since"] == 4.0
    assert away["claimable_at"] == 4.0 + room.settings.abandon_grace and away["left"] is False
    handled = room.handle(Join("c1-again", Role.PLAYER, "ignored", tokens[1]), now=5.0)
    assert reply_of(handled, JoinReply) == JoinReply(Role.PLAYER, "O", None)
    assert handled.event == Presence(
        version=4,
        mark="O",
        connected=True,
        away_since=None,
        left=False,
        claimable_at=None,
        due=None,
    )
    assert room.snapshot()["players"][1] == {
        "mark": "O",
        "name": "P1",
        "connected": True,
        "bot": None,
        "away_since": None,
        "left": False,
        "claimable_at": None,
        "wins": 0,
        "draws": 0,
        "player_id": None,
        "bot_account": False,
    }


def test_wrong_token_cannot_take_a_seat() -> None:
    room, tokens = seated()
    flipped = tokens[0][:-1] + ("B" if tokens[0].endswith("A") else "A")
    assert refused(room, Join("x", Role.PLAYER, None, flipped)).code is ErrorCode.BAD_TOKEN
    assert refused(room, Join("x", Role.PLAYER, None, "not-a-token")).code is ErrorCode.BAD_TOKEN


def test_a_connection_joins_once() -> None:
    room, _ = seated()
    assert refused(room, Join("c0", Role.SPECTATOR)).code is ErrorCode.ALREADY_JOINED
    room.handle(Join("s", Role.SPECTATOR), now=1.0)
    assert refused(room, Join("s", Role.PLAYER)).code is ErrorCode.ALREADY_JOINED


def test_two_connections_on_one_seat_keep_it_connected_until_both_leave() -> None:
    room, tokens = seated()
    room.handle(Join("tab2", Role.PLAYER, None, tokens[0]), now=1.0)
    assert event_of(room.handle(Leave("c0"), now=2.0), Presence).connected is True
    assert event_of(room.handle(Leave("tab2"), now=3.0), Presence).connected is False


def test_leave_of_spectator_and_of_a_stranger() -> None:
    room, _ = seated()
    room.handle(Join("s", Role.SPECTATOR), now=1.0)
    assert event_of(room.handle(Leave("s"), now=2.0), Spectators).count == 0
    before = encode_room(room)
    stranger = room.handle(Leave("nobody"), now=3.0)
    assert stranger.event is None and encode_room(room) == before
