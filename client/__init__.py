"""A typed client of the server's protocol (docs/protocol.md; guide: docs/client.md).

Imports only ``core``, the standard library and ``websockets``. Blocking: ``RoomClient``
(join with a join key, resume after a drop, moves retried with their ``move_id``) and
``TournamentFeed`` (the tournament socket). Asyncio: client.aio; playing as a bot account:
client.bot. Without I/O: client.wire
(what to send, what an answer means) and ``RoomMirror`` (the room as the server reports it).
"""

from __future__ import annotations

from .errors import ClientError, Disconnected, Refused
from .http import create_room, get_json, post_json
from .links import RoomLink, TournamentLink
from .mirror import RoomMirror
from .room import RoomClient
from .tournament import TournamentFeed, enter
from .wire import Seat, move_message, new_move_id

__all__ = [
    "ClientError",
    "Disconnected",
    "Refused",
    "RoomClient",
    "RoomLink",
    "RoomMirror",
    "Seat",
    "TournamentFeed",
    "TournamentLink",
    "create_room",
    "enter",
    "get_json",
    "move_message",
    "new_move_id",
    "post_json",
]
