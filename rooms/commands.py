"""Commands a room handles and the replies it gives (plain values, no I/O).

A command names the connection it comes from; the room knows which seat (if any) each
connection holds, so nothing a client says about itself is trusted.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from core import MoveRequest

__all__ = [
    "Command",
    "Join",
    "JoinReply",
    "Leave",
    "LeaveReply",
    "MoveReply",
    "PlayMove",
    "Reply",
    "Role",
]


class Role(StrEnum):
    PLAYER = "player"
    SPECTATOR = "spectator"


@dataclass(frozen=True, slots=True)
class Join:
    """Take the next free seat (player, no token), resume a seat (player, token), or watch."""

    conn: str
    role: Role
    name: str | None = None
    token: str | None = None

    def __repr__(self) -> str:  # never print a token
        token = "<token>" if self.token is not None else None
        return (
            f"Join(conn={self.conn!r}, role={self.role.value!r}, name={self.name!r}, "
            f"token={token})"
        )


@dataclass(frozen=True, slots=True)
class Leave:
    """A connection closed."""

    conn: str


@dataclass(frozen=True, slots=True)
class PlayMove:
    conn: str
    request: MoveRequest
    version: int
    move_id: str


Command = Join | Leave | PlayMove


@dataclass(frozen=True, slots=True)
class JoinReply:
    """``token`` is set only when the join took a new seat (the only time it is revealed)."""

    role: Role
    mark: str | None
    token: str | None

    def __repr__(self) -> str:
        token = "<token>" if self.token is not None else None
        return f"JoinReply(role={self.role.value!r}, mark={self.mark!r}, token={token})"


@dataclass(frozen=True, slots=True)
class MoveReply:
    move_id: str
    version: int
    duplicate: bool


@dataclass(frozen=True, slots=True)
class LeaveReply:
    left: bool


Reply = JoinReply | MoveReply | LeaveReply
