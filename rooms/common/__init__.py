"""Building blocks shared across rooms/: JSON text, ids, per-key locks, group commit,
tasks."""

from __future__ import annotations

from rooms.common.ids import new_connection_id, new_room_id, new_worker_id, valid_room_id, worker_of
from rooms.common.jsontext import dumps, loads

__all__ = [
    "dumps",
    "loads",
    "new_connection_id",
    "new_room_id",
    "new_worker_id",
    "valid_room_id",
    "worker_of",
]
