"""Seats are capabilities: a seat token (256 random bits) is stored only as its hash.

The token is handed to the player once, in the ``welcome`` that took the seat; presenting
it again (from any connection, on any worker) resumes the seat. Hashes are compared in
constant time, and every seat is compared, so timing reveals neither which seat matched nor
how much of a hash did.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Seat", "find_seat", "hash_token", "new_token"]


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(slots=True)
class Seat:
    """A taken seat: its mark, the player's name, the token hash, the open connections,
    and the ``move_id``s it played with the version each landed at (idempotent moves)."""

    mark: str
    name: str
    token_hash: str
    connections: list[str] = field(default_factory=list)
    moves: dict[str, int] = field(default_factory=dict)

    @property
    def connected(self) -> bool:
        return bool(self.connections)

    def public(self) -> dict[str, Any]:
        """What everyone may see: never the token hash, the connections or move ids."""
        return {"mark": self.mark, "name": self.name, "connected": self.connected}

    def to_dict(self) -> dict[str, Any]:
        return {
            "mark": self.mark,
            "name": self.name,
            "token_hash": self.token_hash,
            "connections": list(self.connections),
            "moves": dict(self.moves),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(
            mark=str(data["mark"]),
            name=str(data["name"]),
            token_hash=str(data["token_hash"]),
            connections=[str(c) for c in data["connections"]],
            moves={str(k): int(v) for k, v in data["moves"].items()},
        )


def find_seat(seats: Sequence[Seat], token: str) -> Seat | None:
    """The seat ``token`` belongs to, or None; compares against every seat in constant time."""
    presented = hash_token(token).encode()
    found: Seat | None = None
    for seat in seats:
        if hmac.compare_digest(presented, seat.token_hash.encode()):
            found = seat
    return found
