"""When the server must act by itself (``Room.due``) and whose bot is to move
(``Room.bot_to_move``), in every kind of room: no clock and no bot (the common room,
answered by a shortcut), a clock, a bot, and both (the earlier time wins)."""

from __future__ import annotations

from core import Move
from rooms import Role, Room, Status
from rooms.protocol import dumps
from rooms.room import BotMove, Join
from rooms.room.commands import Resign
from rooms.room.config import RoomSettings, TimeControl
from rooms.room.events import Moved
from tests.rooms.room.lifecycle_helpers import T0, at, play, room_with
from tests.support.handled import event_of


def _status(room: Room) -> Status:
    return room.status  # read afresh: mypy would keep the first assertion's narrowing


TC = TimeControl(initial=60.0, increment=2.0, first_move=10.0)
QUICK_BOT = RoomSettings(bot_budget=1.0, bot_grace=2.0)  # overdue before the first-move limit
SLOW_BOT = RoomSettings(bot_budget=20.0, bot_grace=5.0)  # overdue after it


def test_a_room_without_clock_or_bot_is_never_due() -> None:
    room, _ = room_with(players=1)
    assert _status(room) is Status.WAITING and not room.has_bot()
    assert room.due() is None and room.bot_to_move() is None
    event = at(room, Join("c1", Role.PLAYER, "P1"), T0).event
    assert event is not None and event.due is None
    assert _status(room) is Status.PLAYING and room.turn_started == T0
    event = play(room, "c0", 1, 1, T0 + 1).event
    assert event is not None and event.due is None
    assert room.due() is None and room.bot_to_move() is None
    at(room, Resign("c1"), T0 + 2)
    assert _status(room) is Status.FINISHED and room.due() is None


def test_a_bot_to_move_is_due_after_its_budget_and_grace() -> None:
    room, _ = room_with(bot=("random", "X"))
    seat = room.bot_to_move()
    assert room.has_bot() and seat is not None and seat.mark == "X" and seat.bot == "random"
    assert room.due() == T0 + 1.0 + 2.0
    event = at(room, BotMove("X", Move(1, 1), room.game_version), T0 + 1).event
    assert event is not None and event.due is None  # the human is to move: nothing due
    assert room.bot_to_move() is None and room.due() is None
    event = play(room, "c0", 0, 0, T0 + 4).event
    assert event is not None and event.due == T0 + 4 + 3.0
    at(room, Resign("c0"), T0 + 5)
    assert room.has_bot() and room.bot_to_move() is None and room.due() is None


def test_a_bot_waiting_for_its_opponent_is_not_to_move() -> None:
    room, _ = room_with(bot=("random", "O"), players=1)
    assert _status(room) is Status.WAITING and room.has_bot()
    assert room.bot_to_move() is None and room.due() is None
    at(room, Join("c0", Role.PLAYER, "P0"), T0)
    assert _status(room) is Status.PLAYING
    assert room.bot_to_move() is None and room.due() is None  # X, the human, moves first


def test_with_a_clock_and_a_bot_the_earlier_time_is_due() -> None:
    quick, _ = room_with(bot=("random", "X"), time_control=TC, settings=QUICK_BOT)
    deadline = quick.deadline()
    assert deadline is not None and deadline.at == T0 + 10
    assert quick.due() == T0 + 3  # the bot is overdue first
    slow, _ = room_with(bot=("random", "X"), time_control=TC, settings=SLOW_BOT)
    assert slow.due() == T0 + 10  # the first-move limit comes first
    event = at(slow, BotMove("X", Move(1, 1), slow.game_version), T0 + 1).event
    assert event is not None and event.due == T0 + 1 + 10  # the human's first-move limit


def test_a_clock_alone_is_due_at_the_deadline() -> None:
    room, _ = room_with(time_control=TC)
    assert not room.has_bot() and room.bot_to_move() is None
    assert room.due() == T0 + 10
    event = play(room, "c0", 1, 1, T0 + 4).event
    assert event is not None and event.due == T0 + 14


def test_an_unproven_bot_move_says_so_in_its_event() -> None:
    room, _ = room_with(bot=("perfect", "X"))
    guess = at(room, BotMove("X", Move(1, 1), room.game_version, proven=False), T0 + 1)
    assert event_of(guess, Moved).unproven is True
    assert '"unproven":true' in dumps(event_of(guess, Moved))
    room2, _ = room_with(bot=("perfect", "X"))
    proof = at(room2, BotMove("X", Move(1, 1), room2.game_version, proven=True), T0 + 1)
    assert event_of(proof, Moved).unproven is None
    assert "unproven" not in dumps(event_of(proof, Moved))  # the flag only when it is a guess
