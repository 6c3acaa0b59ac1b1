"""Authoritative rooms: the sans-I/O room, the async service around it, and the backends.

Start at ``RoomService`` (rooms.service): every command goes load → ``Room.handle`` →
compare-and-set commit → publish. ``open_backend(url)`` picks store, bus, presence
registry, quick-play queue, player directory and rating book together (``memory://``,
``redis://``, ``redis+cluster://``, ``redis+sentinel://``); guest identities live in
``rooms.players``, ratings in ``rooms.ratings``;
``Hub`` and ``Feed`` fan each room's events out to a worker's connections in version
order. Commands live in ``rooms.room``, wire messages in ``rooms.protocol``, the seams in
``rooms.backends``. Never imports the server layer, Starlette or uvicorn.
"""

from __future__ import annotations

from rooms.backends.open import Backend, BackendOptions, open_backend, redact_url
from rooms.common.ids import new_connection_id, worker_of
from rooms.errors import ErrorCode, RoomError, UnsupportedBackend, from_game_error
from rooms.fanout.feed import Feed
from rooms.fanout.hub import Hub
from rooms.presence.lease import LeaseLost, Presence
from rooms.presence.sweep import Sweeper
from rooms.quickplay import Matched, queue_key, quick_play
from rooms.ratings.rater import Rater
from rooms.room.commands import Command, Role
from rooms.room.config import RoomSettings, TimeControl
from rooms.room.room import Room, Status
from rooms.service import Executed, RoomService
from rooms.watch import Think, Watch, think_in_thread

__all__ = [
    "Backend",
    "BackendOptions",
    "Command",
    "ErrorCode",
    "Executed",
    "Feed",
    "Hub",
    "LeaseLost",
    "Matched",
    "Presence",
    "Rater",
    "Role",
    "Room",
    "RoomError",
    "RoomService",
    "RoomSettings",
    "Status",
    "Sweeper",
    "Think",
    "TimeControl",
    "UnsupportedBackend",
    "Watch",
    "from_game_error",
    "new_connection_id",
    "open_backend",
    "redact_url",
    "queue_key",
    "quick_play",
    "think_in_thread",
    "worker_of",
]
