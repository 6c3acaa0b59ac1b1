"""Draw offers and takeback requests in the sans-I/O room: consent, lapses, anti-spam,
backoff, and bots."""

from __future__ import annotations

import pytest

from core import MoveRequest
from rooms import ErrorCode, Role, Status
from rooms.room import Join, PlayMove
from rooms.room.commands import Answer, Offer, OfferKind, Resign
from rooms.room.config import RoomSettings
from rooms.room.events import (
    DrawDeclined,
    DrawOffered,
    GameOver,
    Moved,
    TakebackDeclined,
    TakebackOffered,
    Undone,
)
from tests.rooms.room.lifecycle_helpers import T0, at, play, refused_at, room_with
from tests.support.handled import event_of

DRAW, TAKEBACK = OfferKind.DRAW, OfferKind.TAKEBACK


def test_a_draw_offer_accepted_ends_the_game_drawn() -> None:
    room, _ = room_with()
    play(room, "c0", 1, 1, T0 + 1)
    offered = event_of(at(room, Offer("c0", DRAW), T0 + 2), DrawOffered)
    assert offered.by == "X"
    assert offered.offers == {"draw": "X", "takeback": None, "rematch": []}
    assert refused_at(room, Answer("c0", DRAW, True), T0 + 3).code is ErrorCode.NO_OFFER
    event = event_of(at(room, Answer("c1", DRAW, True), T0 + 3), GameOver)
    assert event.outcome["reason"] == "agreement" and event.by == "O"
    assert [p["draws"] for p in event.players] == [1, 1]
    assert event.offers["draw"] is None


def test_a_declined_offer_is_withdrawn_and_cannot_be_repeated_before_a_move() -> None:
    room, _ = room_with()
    at(room, Offer("c0", DRAW), T0 + 1)
    assert refused_at(room, Offer("c1", DRAW), T0 + 1).code is ErrorCode.OFFER_PENDING
    declined = event_of(at(room, Answer("c1", DRAW, False), T0 + 2), DrawDeclined)
    assert declined.by == "O"
    assert refused_at(room, Offer("c0", DRAW), T0 + 3).code is ErrorCode.TOO_SOON
    assert refused_at(room, Answer("c1", DRAW, False), T0 + 3).code is ErrorCode.NO_OFFER
    play(room, "c0", 1, 1, T0 + 4)
    assert at(room, Offer("c0", DRAW), T0 + 5).event is not None


def test_an_offer_lapses_when_the_offerer_moves_but_not_when_the_opponent_does() -> None:
    room, _ = room_with()
    play(room, "c0", 1, 1, T0 + 1)
    at(room, Offer("c0", DRAW), T0 + 2)
    assert event_of(play(room, "c1", 0, 0, T0 + 3), Moved).offers["draw"] == "X"
    assert event_of(play(room, "c0", 0, 1, T0 + 4), Moved).offers["draw"] is None
    assert refused_at(room, Answer("c1", DRAW, True), T0 + 5).code is ErrorCode.NO_OFFER


def test_offers_from_spectators_or_outside_play_are_refused() -> None:
    room, _ = room_with(players=1)
    assert refused_at(room, Offer("c0", DRAW), T0).code is ErrorCode.NOT_STARTED
    room.handle(Join("c1", Role.PLAYER), T0)
    room.handle(Join("s", Role.SPECTATOR), T0)
    for command in (Offer("s", DRAW), Offer("s", TAKEBACK), Answer("s", DRAW, True)):
        assert refused_at(room, command, T0).code is ErrorCode.NOT_A_PLAYER
    at(room, Resign("c1"), T0 + 1)
    for command in (Offer("c0", DRAW), Answer("c0", TAKEBACK, True), Offer("c0", TAKEBACK)):
        assert refused_at(room, command, T0 + 2).code is ErrorCode.GAME_OVER


def test_a_takeback_on_the_opponents_turn_rewinds_one_move() -> None:
    room, _ = room_with()
    play(room, "c0", 1, 1, T0 + 1)
    assert refused_at(room, Offer("c1", TAKEBACK), T0 + 2).code is (ErrorCode.NOTHING_TO_TAKE_BACK)
    assert event_of(at(room, Offer("c0", TAKEBACK), T0 + 2), TakebackOffered).by == "X"
    assert refused_at(room, Offer("c0", TAKEBACK), T0 + 2).code is ErrorCode.OFFER_PENDING
    assert refused_at(room, Answer("c0", TAKEBACK, True), T0 + 2).code is ErrorCode.NO_OFFER
    event = event_of(at(room, Answer("c1", TAKEBACK, True), T0 + 3), Undone)
    assert event.by == "O" and event.moves == [{"mark": "X", "row": 1, "col": 1, "layer": 0}]
    assert event.board == ".../.../..." and event.turn == "X" and event.ply == 0
    assert room.game_version == room.version  # moves made before the takeback are stale
    stale = PlayMove("c0", MoveRequest(2, 2), room.version - 1, "old")
    assert refused_at(room, stale, T0 + 4).code is ErrorCode.STALE_VERSION


def test_a_takeback_after_the_reply_rewinds_two_moves() -> None:
    room, _ = room_with()
    play(room, "c0", 1, 1, T0 + 1)
    play(room, "c1", 0, 0, T0 + 2)
    at(room, Offer("c0", TAKEBACK), T0 + 3)
    event = event_of(at(room, Answer("c1", TAKEBACK, True), T0 + 4), Undone)
    assert [(m["mark"], m["row"], m["col"]) for m in event.moves] == [("O", 0, 0), ("X", 1, 1)]
    assert room.game.turn == "X" and room.game.ply == 0 and room.move_times == []


def test_a_takeback_request_lapses_when_anyone_moves() -> None:
    room, _ = room_with()
    play(room, "c0", 1, 1, T0 + 1)
    at(room, Offer("c0", TAKEBACK), T0 + 2)
    assert event_of(play(room, "c1", 0, 0, T0 + 3), Moved).offers["takeback"] is None
    assert refused_at(room, Answer("c1", TAKEBACK, True), T0 + 4).code is ErrorCode.NO_OFFER


def test_declined_takebacks_back_off_doubling() -> None:
    room, _ = room_with(settings=RoomSettings(takeback_backoff=5.0))
    play(room, "c0", 1, 1, T0)
    at(room, Offer("c0", TAKEBACK), T0 + 1)
    event_of(at(room, Answer("c1", TAKEBACK, False), T0 + 2), TakebackDeclined)
    error = refused_at(room, Offer("c0", TAKEBACK), T0 + 3)
    assert error.code is ErrorCode.TOO_SOON and error.retry_after == pytest.approx(4.0)
    at(room, Offer("c0", TAKEBACK), T0 + 7)
    at(room, Answer("c1", TAKEBACK, False), T0 + 8)
    error = refused_at(room, Offer("c0", TAKEBACK), T0 + 17)
    assert error.code is ErrorCode.TOO_SOON and error.retry_after == pytest.approx(1.0)
    at(room, Offer("c0", TAKEBACK), T0 + 18)


def test_against_a_bot_a_takeback_is_granted_at_once_and_a_draw_refused() -> None:
    room, _ = room_with(bot=("random", "O"))
    assert room.status is Status.PLAYING and room.players()[1]["bot"] == "random"
    play(room, "c0", 1, 1, T0 + 1)
    assert refused_at(room, Offer("c0", DRAW), T0 + 2).code is ErrorCode.BOT_OPPONENT
    assert event_of(at(room, Offer("c0", TAKEBACK), T0 + 2), Undone).by == "X"
    assert room.game.ply == 0
