"""A joined connection's chat lines: not game state, published for one audience only.

A line goes on the room's channel (the hub hands it only to listeners of its audience,
players or spectators), with the speaker taken from the room (the seat the connection
holds), never from the message. The room's actions (resign, offers, claims...) are the
table of rooms.protocol.actions.
"""

from __future__ import annotations

import time

from rooms import Hub, RoomService
from rooms.protocol import ChatMessage, ServerType, dumps

__all__ = ["chat_line"]


async def chat_line(
    service: RoomService,
    hub: Hub,
    room_id: str,
    conn: str,
    message: ChatMessage,
    *,
    spectator_name: str,
) -> None:
    """Publish ``message`` to the audience of ``conn`` (players or spectators)."""
    room = await service.load(room_id)
    seat = room.seat_of(conn)
    speaker: dict[str, str | None]
    if seat is not None:
        channel = "players"
        speaker = {"role": "player", "mark": seat.mark, "name": seat.name}
    else:
        channel = "spectators"
        speaker = {"role": "spectator", "mark": None, "name": spectator_name}
    line = {
        "type": ServerType.CHAT.value,
        "channel": channel,
        "from": speaker,
        "text": message.text,
        "at": time.time(),
    }
    await hub.publish(room_id, dumps(line))
