"""Authoritative rooms: the sans-I/O room, the service around it, and the store/bus seams.

``Room.handle(command, now)`` is the pure state machine; ``RoomService`` runs every command
through load → handle → compare-and-set commit → publish; ``Store`` and ``Bus`` are the
seams (``memory://`` here, ``redis://`` later), chosen by ``open_backend(url)``; ``Hub`` and
``Feed`` fan a room's events out to a worker's connections in version order.
Never imports the server layer, Starlette or uvicorn.
"""

from __future__ import annotations

from .backends import Backend, BackendOptions, UnsupportedBackend, open_backend
from .bus import Bus, Subscription
from .codec import decode_room, encode_room
from .commands import (
    Abort,
    Answer,
    BotMove,
    Claim,
    Command,
    Done,
    Evict,
    Join,
    JoinReply,
    Leave,
    LeaveReply,
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
from .config import RoomSettings, TimeControl
from .errors import ErrorCode, RoomError, from_game_error
from .events import EventType
from .feed import Feed
from .hub import Hub, Listener
from .ids import new_connection_id, new_room_id, new_worker_id, valid_room_id, worker_of
from .memory import MemoryBus, MemoryStore
from .parse import (
    ActionMessage,
    ChatMessage,
    ClaimMessage,
    ClientMessage,
    JoinMessage,
    MoveMessage,
    PingMessage,
    SyncMessage,
    parse_message,
)
from .presence import LeaseLost, LostHandler, Presence
from .presence_registry import MemoryRegistry, Registry, presence_registry
from .presence_sweep import Sweeper
from .protocol import (
    ENCODES,
    PROTOCOL_VERSION,
    RESERVED_TYPES,
    ClientType,
    ServerType,
    ack_message,
    dumps,
    error_message,
    event_version,
    move_ok_message,
    pong_message,
    state_message,
    welcome_message,
)
from .quickplay import Matched, MemoryQueue, QuickPlayQueue, queue_for, queue_key, quick_play
from .record import GameRecord, current_record, format_record, parse_record
from .room import Handled, Room, Status
from .seats import Seat, hash_token
from .service import Executed, Observer, RoomService
from .store import Store, StoredRoom, Swapped
from .watch import Think, Watch, think_in_thread

__all__ = [
    "ENCODES",
    "PROTOCOL_VERSION",
    "RESERVED_TYPES",
    "Abort",
    "ActionMessage",
    "Answer",
    "Backend",
    "BackendOptions",
    "BotMove",
    "Bus",
    "ChatMessage",
    "Claim",
    "ClaimMessage",
    "ClientMessage",
    "ClientType",
    "Command",
    "Done",
    "ErrorCode",
    "EventType",
    "Evict",
    "Executed",
    "Feed",
    "GameRecord",
    "Handled",
    "Hub",
    "Join",
    "JoinMessage",
    "JoinReply",
    "LeaseLost",
    "Leave",
    "LeaveReply",
    "Listener",
    "LostHandler",
    "Matched",
    "MemoryBus",
    "MemoryQueue",
    "MemoryRegistry",
    "MemoryStore",
    "MoveMessage",
    "MoveReply",
    "Observer",
    "Offer",
    "OfferKind",
    "PingMessage",
    "PlayMove",
    "Presence",
    "QuickPlayQueue",
    "Registry",
    "Rematch",
    "Reply",
    "Reserve",
    "Resign",
    "Retire",
    "Role",
    "Room",
    "RoomError",
    "RoomService",
    "RoomSettings",
    "Seat",
    "ServerType",
    "Status",
    "Store",
    "StoredRoom",
    "Swapped",
    "Subscription",
    "Sweeper",
    "SyncMessage",
    "Think",
    "Tick",
    "TimeControl",
    "UnsupportedBackend",
    "Watch",
    "ack_message",
    "current_record",
    "decode_room",
    "dumps",
    "encode_room",
    "error_message",
    "event_version",
    "format_record",
    "from_game_error",
    "hash_token",
    "move_ok_message",
    "new_connection_id",
    "new_room_id",
    "new_worker_id",
    "open_backend",
    "parse_message",
    "parse_record",
    "pong_message",
    "presence_registry",
    "queue_for",
    "queue_key",
    "quick_play",
    "state_message",
    "think_in_thread",
    "valid_room_id",
    "welcome_message",
    "worker_of",
]
