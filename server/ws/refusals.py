"""What a session treats as a refusal: the closes that refuse a client (logged at WARNING)
and the join errors after which nothing was written (server/ws/session.py)."""

from __future__ import annotations

from rooms import ErrorCode

from .close_codes import CloseCode

__all__ = ["CLOSE_REFUSALS", "JOIN_REFUSED_FOR_SURE", "UVICORN_REFUSALS"]

CLOSE_REFUSALS: dict[int | None, str] = {
    CloseCode.UNSUPPORTED_DATA: "binary_frame",
    CloseCode.FLOOD: "flood",
    CloseCode.TOO_SLOW: "too_slow",
}
"""Closes that refuse an abusive or too slow client, logged at WARNING."""

UVICORN_REFUSALS: dict[int, str] = {
    CloseCode.TOO_BIG: "frame_too_big",
    CloseCode.INVALID_DATA: "invalid_utf8",
}
"""Closes that uvicorn makes itself, seen here as the disconnect code: logged the same way."""

JOIN_REFUSED_FOR_SURE = frozenset(
    {
        ErrorCode.ROOM_FULL,
        ErrorCode.BAD_TOKEN,
        ErrorCode.BAD_MESSAGE,
        ErrorCode.ROOM_NOT_FOUND,
        ErrorCode.IDENTITY_REQUIRED,  # a rated room's seat (rooms.room.seating)
        ErrorCode.IDENTITY_SEATED,
        ErrorCode.BOTS_NOT_ALLOWED,  # bot accounts (rooms.bots)
        ErrorCode.BOTS_ONLY,
        ErrorCode.BOT_TOKEN_REQUIRED,
    }
)
"""A join the room refused: nothing was written. Any other failure of a join's commit (the
store failed mid-way, a retried commit found it landed) may have joined this connection;
its departure is then recorded, maybe later (rooms.presence), so this connection id is
spent: the session closes with 1012 and the client joins again on a new connection."""
