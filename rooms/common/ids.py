"""Random identifiers for rooms, workers, connections and player identities.

Private room ids carry 128 bits, public ones are short codes. A connection id names the worker
holding it, so any worker can tell whose it is. A player id is public (it names the player on
pages and in rooms), so it only needs to be unique: 96 random bits.
"""

from __future__ import annotations

import re
import secrets

__all__ = [
    "PUBLIC_ALPHABET",
    "new_connection_id",
    "new_player_id",
    "new_room_id",
    "new_worker_id",
    "valid_player_id",
    "valid_room_id",
    "worker_of",
]

PUBLIC_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
"""Public room codes avoid look-alikes (0/o, 1/l/i) so they can be read aloud."""

PUBLIC_LENGTH = 8
_ROOM_ID = re.compile(r"[A-Za-z0-9_-]{4,64}")


def new_room_id(*, public: bool) -> str:
    """A private room's id is unguessable (``token_urlsafe(16)``, 128 bits): the link is the
    invitation. A public room is listed anyway, so a short random code is enough."""
    if public:
        return "".join(secrets.choice(PUBLIC_ALPHABET) for _ in range(PUBLIC_LENGTH))
    return secrets.token_urlsafe(16)


def valid_room_id(room_id: str) -> bool:
    return _ROOM_ID.fullmatch(room_id) is not None


_WORKER = re.compile(r"[0-9a-f]{12}")


def new_worker_id() -> str:
    """A worker's name in the presence registry (48 random bits, lowercase hex). A worker
    takes a new one whenever it loses its lease, so an id is never alive twice."""
    return secrets.token_hex(6)


def new_connection_id(worker: str | None = None) -> str:
    """Unique across workers and hosts (64 random bits), so any worker may hold a seat;
    ``worker.random`` when a worker id is given, so the room records whose it is."""
    random = secrets.token_hex(8)
    return f"{worker}.{random}" if worker is not None else random


def worker_of(conn: str) -> str | None:
    """The worker id a connection id names (None for an id without one)."""
    head, dot, _ = conn.partition(".")
    return head if dot and _WORKER.fullmatch(head) else None


_PLAYER = re.compile(r"[A-Za-z0-9_-]{16}")


def new_player_id() -> str:
    """A player identity's public id: 16 URL-safe characters (``token_urlsafe(12)``, 96 random
    bits), short enough for a link, and never the same twice in practice (a collision is
    still refused by the directory's create, which then draws again)."""
    return secrets.token_urlsafe(12)


def valid_player_id(player_id: object) -> bool:
    return isinstance(player_id, str) and _PLAYER.fullmatch(player_id) is not None
