"""What everyone may see of a room: the snapshot and the line of the public room list.

The snapshot is protocol.md's "The snapshot". No tokens, no connection ids, ever.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rooms.room.record import current_record

if TYPE_CHECKING:
    from rooms.room.state import RoomState

__all__ = ["snapshot", "summary"]


def snapshot(room: RoomState, now: float) -> dict[str, Any]:
    record = current_record(room)
    return {
        "room_id": room.room_id,
        "public": room.public,
        "rules": room.rules.to_dict(),
        "status": room.status.value,
        "board": room.game.board.text,
        "turn": room.turn,
        "ply": room.game.ply,
        "moves": record["moves"],
        "outcome": record["outcome"],
        "players": room.players(),
        "seats": room.rules.players,
        "spectators": len(room.spectators),
        "version": room.version,
        "now": now,
        "due": room.due(),
        "game_number": room.game_number,
        "started_at": room.started_at,
        "ended_at": room.ended_at,
        "clock": room.clock_view(now),
        "offers": room.offers.view(),
        "settings": room.settings.public(),
        "games": list(room.games),
        "rated": room.settings.rated,
        "pool": room.settings.pool,
        "rating_change": room.rating_change,
        "tournament": room.settings.tournament,
    }


def summary(room: RoomState) -> dict[str, Any]:
    return {
        "room_id": room.room_id,
        "rules": room.rules.to_dict(),
        "status": room.status.value,
        "players": room.players(),
        "seats": room.rules.players,
        "spectators": len(room.spectators),
        "version": room.version,
        "bot": next((seat.bot for seat in room.seats if seat.bot is not None), None),
        "time_control": (
            room.settings.time_control.to_dict() if room.settings.time_control else None
        ),
        "rated": room.settings.rated,
        "pool": room.settings.pool,
    }
