"""Bot accounts' seats in the sans-I/O room (rooms.bots): a bot sits only where the room
seats bots, its seat has no token and is taken again by the bot alone, tournament seats of
a bot entrant are its own, a rated room's pool decides who sits, and a game between a bot
and a person never leaves a rating to apply (one between two bots only in a bot pool)."""

from __future__ import annotations

from core import Rules
from rooms import ErrorCode, Role
from rooms.protocol import decode_room, encode_room
from rooms.room import Join, JoinReply, Reserve, Resign, Room
from rooms.room.config import RoomSettings
from rooms.room.seats import Seat, find_seat
from tests.rooms.room.lifecycle_helpers import T0, at, refused_at

ROBO, ADA, BETA = "RoboRoboRobo0001", "AdaAdaAdaAda0001", "BetaBetaBeta0002"


def room_of(**settings: object) -> Room:
    return Room("room0001", Rules(), public=False, created=T0, settings=RoomSettings(**settings))  # type: ignore[arg-type]


def test_a_bot_sits_only_where_bots_may_and_its_seat_has_no_token() -> None:
    closed = room_of()
    refused = refused_at(closed, Join("c0", Role.PLAYER, "Robo", player_id=ROBO, bot=True), T0)
    assert refused.code is ErrorCode.BOTS_NOT_ALLOWED
    room = room_of(bots=True)
    reserved = at(room, Reserve("Robo", player_id=ROBO, bot=True), T0)
    assert isinstance(reserved.reply, JoinReply) and reserved.reply.token is None
    seat = room.seats[0]
    assert seat.bot_account and seat.token_hash == "" and not seat.connections
    assert find_seat(room.seats, "") is None  # no token ever matches an empty hash
    again = at(room, Join("c1", Role.PLAYER, None, player_id=ROBO, bot=True), T0 + 1)
    assert isinstance(again.reply, JoinReply) and again.reply.token is None
    assert again.reply.mark == "X" and room.seats[0].connections == ["c1"] and len(room.seats) == 1
    at(room, Join("c2", Role.PLAYER, "Ada", player_id=ADA), T0 + 2)  # a person, unrated: fine
    snapshot = room.snapshot(T0 + 2)
    assert [p["bot_account"] for p in snapshot["players"]] == [True, False]
    assert snapshot["settings"]["bots"] is True
    stored = decode_room(encode_room(room))
    assert stored.seats[0].bot_account and stored.settings.bots


def test_a_tournament_seat_of_a_bot_entrant_is_taken_with_its_token_only() -> None:
    room = room_of(tournament="t1")
    for mark, name, player_id, bot in (("X", "Robo", ROBO, True), ("O", "Ada", ADA, False)):
        room.seats.append(Seat(mark, name, "", away_since=T0, player_id=player_id, bot_account=bot))
    room.start_if_full(T0)
    by_secret = refused_at(room, Join("c0", Role.PLAYER, None, player_id=ROBO), T0)
    assert by_secret.code is ErrorCode.BOT_TOKEN_REQUIRED
    taken = at(room, Join("c0", Role.PLAYER, None, player_id=ROBO, bot=True), T0)
    assert isinstance(taken.reply, JoinReply) and taken.reply.token is None


def test_a_rated_rooms_pool_decides_who_sits_and_bots_are_rated_among_bots() -> None:
    people = room_of(pool="classic.untimed")
    bot_there = refused_at(people, Join("c0", Role.PLAYER, "Robo", player_id=ROBO, bot=True), T0)
    assert bot_there.code is ErrorCode.BOTS_NOT_ALLOWED
    bots = room_of(pool="bot.classic.untimed", bots=True)
    person_there = refused_at(bots, Join("c0", Role.PLAYER, "Ada", player_id=ADA), T0)
    assert person_there.code is ErrorCode.BOTS_ONLY
    at(bots, Join("c0", Role.PLAYER, "Robo", player_id=ROBO, bot=True), T0)
    at(bots, Join("c1", Role.PLAYER, "Beta", player_id=BETA, bot=True), T0)
    at(bots, Resign("c1"), T0 + 1)
    assert [entry["pool"] for entry in bots.rating_pending] == ["bot.classic.untimed"]


def test_a_bot_and_a_person_are_never_rated_together_whatever_the_room_says() -> None:
    # a room made before the rule, or by hand: the rating step still refuses to mix them
    room = room_of(pool="classic.untimed")
    room.seats.append(Seat("X", "Robo", "", ["c0"], player_id=ROBO, bot_account=True))
    at(room, Join("c1", Role.PLAYER, "Ada", player_id=ADA), T0)
    at(room, Resign("c1"), T0 + 1)
    assert room.rating_pending == []
    both = room_of(pool="classic.untimed")  # two bots in a people's pool: rated as bots
    both.seats.append(Seat("X", "Robo", "", ["c0"], player_id=ROBO, bot_account=True))
    both.seats.append(Seat("O", "Beta", "", ["c1"], player_id=BETA, bot_account=True))
    both.start_if_full(T0)
    at(both, Resign("c1"), T0 + 1)
    assert [entry["pool"] for entry in both.rating_pending] == ["bot.classic.untimed"]
