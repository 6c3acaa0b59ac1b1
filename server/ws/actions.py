"""A joined connection's lifecycle messages as room commands, their answers, and its chat lines.

Each lifecycle message (``resign`` ... ``leave``) becomes a room command naming the
connection (the room knows which seat it holds), goes through the service's versioned
commit, and is answered with ``ack``. Chat is not game state: a line is published on the
room's channel for one audience only, with the speaker taken from the room (the seat the
connection holds), never from the message.
"""

from __future__ import annotations

import time

from rooms import Command, Executed, Hub, RoomService
from rooms.protocol import (
    ActionMessage,
    ChatMessage,
    ClaimMessage,
    ClientType,
    ServerType,
    dumps,
    move_ok_message,
)
from rooms.room import (
    Abort,
    Answer,
    Claim,
    Done,
    Event,
    Leave,
    MoveReply,
    Offer,
    OfferKind,
    Rematch,
    Resign,
)

__all__ = ["chat_line", "command_for", "move_ok_text", "version_of"]

_ANSWERS = {
    ClientType.ACCEPT_DRAW: (OfferKind.DRAW, True),
    ClientType.DECLINE_DRAW: (OfferKind.DRAW, False),
    ClientType.ACCEPT_TAKEBACK: (OfferKind.TAKEBACK, True),
    ClientType.DECLINE_TAKEBACK: (OfferKind.TAKEBACK, False),
}


def command_for(message: ActionMessage | ClaimMessage, conn: str) -> Command:
    if isinstance(message, ClaimMessage):
        return Claim(conn, draw=message.draw, mark=message.mark)
    kind = message.kind
    if kind in _ANSWERS:
        offer, accept = _ANSWERS[kind]
        return Answer(conn, offer, accept)
    if kind is ClientType.RESIGN:
        return Resign(conn)
    if kind is ClientType.ABORT:
        return Abort(conn)
    if kind is ClientType.OFFER_DRAW:
        return Offer(conn, OfferKind.DRAW)
    if kind is ClientType.TAKEBACK:
        return Offer(conn, OfferKind.TAKEBACK)
    if kind is ClientType.REMATCH:
        return Rematch(conn)
    assert kind is ClientType.LEAVE, kind
    return Leave(conn, deliberate=True)


def version_of(reply: object, event: Event | None) -> int | None:
    """The version an ``ack`` names: the command's event's (None when nothing changed)."""
    if isinstance(reply, Done):
        return reply.version
    return event.version if event is not None else None


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


def move_ok_text(executed: Executed) -> str:
    """The answer to a move that landed (or was a duplicate)."""
    assert isinstance(executed.reply, MoveReply)
    return dumps(move_ok_message(executed.reply))
