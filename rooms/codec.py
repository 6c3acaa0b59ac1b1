"""A room to JSON text and back: what every store keeps, memory and Redis alike.

``{"format": 1, "room_id", "public", "created", "updated", "version", "game_version",
"game": <core.codec>, "seats": [...], "spectators": [...]}``. Decoding replays the game
through the engine, so a corrupted record is refused with a RoomError (never an
impossible room).
"""

from __future__ import annotations

import json
from typing import Any

from core import GameError, decode, encode

from .errors import ErrorCode, RoomError
from .room import Room
from .seats import Seat

__all__ = ["FORMAT", "decode_room", "encode_room"]

FORMAT = 1


def encode_room(room: Room) -> str:
    data = {
        "format": FORMAT,
        "room_id": room.room_id,
        "public": room.public,
        "created": room.created,
        "updated": room.updated,
        "version": room.version,
        "game_version": room.game_version,
        "game": encode(room.game),
        "seats": [seat.to_dict() for seat in room.seats],
        "spectators": list(room.spectators),
    }
    return json.dumps(data, separators=(",", ":"))


def decode_room(text: str) -> Room:
    try:
        data: Any = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a stored room (format {FORMAT})")
        game = decode(data["game"])
        return Room(
            str(data["room_id"]),
            game.rules,
            public=bool(data["public"]),
            created=float(data["created"]),
            updated=float(data["updated"]),
            game=game,
            seats=[Seat.from_dict(seat) for seat in data["seats"]],
            spectators=[str(conn) for conn in data["spectators"]],
            version=int(data["version"]),
            game_version=int(data["game_version"]),
        )
    except (GameError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RoomError(
            ErrorCode.INTERNAL_ERROR, f"stored room cannot be decoded: {exc}"
        ) from exc
