"""Random identifiers: room ids (private: 128 bits; public: short codes) and connection ids."""

from __future__ import annotations

import re
import secrets

__all__ = ["PUBLIC_ALPHABET", "new_connection_id", "new_room_id", "valid_room_id"]

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


def new_connection_id() -> str:
    """Unique across workers and hosts (64 random bits), so any worker may hold a seat."""
    return secrets.token_hex(8)
