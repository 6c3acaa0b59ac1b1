"""A player's correspondence games, theirs to move first: the lobby's "your turn".

The store records each correspondence room under the identities seated in it (rooms.backends.
due), so any device holding an identity sees its games, whichever worker it asks. Each listed
room is read as stored now; a game that is over, a room gone, or a seat the identity no longer
holds is dropped from the record as it is found.
"""

from __future__ import annotations

from typing import Any

from rooms.backends.due import DueIndex
from rooms.errors import ErrorCode, RoomError
from rooms.room.room import Room, Status
from rooms.service import RoomService

__all__ = ["MAX_GAMES", "game_line", "player_games"]

MAX_GAMES = 100
"""The most correspondence games one listing reads."""


async def player_games(
    service: RoomService, index: DueIndex, player_id: str, *, limit: int = MAX_GAMES
) -> list[dict[str, Any]]:
    """``player_id``'s correspondence games on now: those where it is their move first,
    the least time left first, then the others (see ``game_line``)."""
    now = service.now()
    games: list[dict[str, Any]] = []
    for room_id in await index.player_rooms(player_id, limit):
        try:
            room = await service.load(room_id)
        except RoomError as exc:
            if exc.code is not ErrorCode.ROOM_NOT_FOUND:
                raise
            room = None
        line = game_line(room, player_id, now) if room is not None else None
        if line is None:
            await index.forget_player_room(player_id, room_id)
        else:
            games.append(line)
    far = float("inf")
    games.sort(key=lambda g: (not g["your_turn"], g["deadline"] or far, g["room_id"]))
    return games


def game_line(room: Room, player_id: str, now: float) -> dict[str, Any] | None:
    """What the lobby shows of ``room`` to ``player_id``; None when it is nothing of theirs
    any more (the game is over, or they hold no seat)."""
    seat = next((s for s in room.seats if s.player_id == player_id and s.bot is None), None)
    if seat is None or room.status is Status.FINISHED:
        return None
    control = room.settings.time_control
    deadline = room.deadline() if room.status is Status.PLAYING else None
    opponents = [s.name for s in room.seats if s is not seat]
    return {
        "room_id": room.room_id,
        "mark": seat.mark,
        "status": room.status.value,
        "your_turn": deadline is not None and deadline.mark == seat.mark,
        "turn": room.turn if room.status is Status.PLAYING else None,
        "deadline": deadline.at if deadline is not None else None,
        "time_left": round(max(deadline.at - now, 0.0), 3) if deadline is not None else None,
        "opponents": opponents,
        "rules": room.rules.to_dict(),
        "time_control": control.to_dict() if control is not None else None,
        "moves": room.game.ply,
        "version": room.version,
    }
