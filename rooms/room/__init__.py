"""The sans-I/O room: its state, the commands it handles and the events it emits."""

from __future__ import annotations

from rooms.room.commands import (
    Abort,
    Answer,
    BotMove,
    Claim,
    Command,
    Done,
    Evict,
    Join,
    JoinReply,
    JoinSpectators,
    Leave,
    LeaveReply,
    LeaveSpectators,
    MoveReply,
    Offer,
    OfferKind,
    PlayMove,
    Rematch,
    Reply,
    Reserve,
    Resign,
    Retire,
    Role,
    Tick,
)
from rooms.room.config import RoomSettings, TimeControl
from rooms.room.events import Event, EventType
from rooms.room.guest_names import guest_name
from rooms.room.record import (
    GameRecord,
    current_record,
    format_record,
    game_id,
    parse_record,
)
from rooms.room.room import Handled, Room, Status
from rooms.room.seats import Seat, hash_token

__all__ = [
    "Abort",
    "Answer",
    "BotMove",
    "Claim",
    "Command",
    "Done",
    "Event",
    "EventType",
    "Evict",
    "GameRecord",
    "Handled",
    "Join",
    "JoinReply",
    "JoinSpectators",
    "Leave",
    "LeaveReply",
    "LeaveSpectators",
    "MoveReply",
    "Offer",
    "OfferKind",
    "PlayMove",
    "Rematch",
    "Reply",
    "Reserve",
    "Resign",
    "Retire",
    "Role",
    "Room",
    "RoomSettings",
    "Seat",
    "Status",
    "Tick",
    "TimeControl",
    "current_record",
    "format_record",
    "game_id",
    "guest_name",
    "hash_token",
    "parse_record",
]
