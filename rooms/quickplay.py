"""Quick play: seat a player in the oldest public room waiting with the same rules, or open one.

Two requests at the same moment never end in two half-empty rooms or in one seat. The queue (one
per rules and time control) holds the ids of public rooms waiting for a player, oldest first.
Taking from it (``pop``) and "take the oldest, else queue mine" (``offer``) are each one atomic
step in the store, so of two simultaneous requests that both opened a room, the second to
``offer`` finds the first's room, sits there and withdraws its own (``Retire``). Seats are taken
by ``Reserve`` through the room's compare-and-set, so even a room id handed out twice cannot
seat two players on one seat. Entries whose room is gone or full, or whose player never
connected (or left) for ``abandon_grace`` seconds, are dropped when met.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from core import Rules
from rooms.backends.queue import QuickPlayQueue
from rooms.errors import ErrorCode, RoomError
from rooms.room.commands import JoinReply, Reserve, Retire
from rooms.room.config import RoomSettings, TimeControl
from rooms.room.handled import Status
from rooms.room.room import Room
from rooms.service import RoomService

__all__ = ["Matched", "queue_key", "quick_play"]


def queue_key(rules: Rules, time_control: TimeControl | None) -> str:
    """A short stable name for "these rules with this time control"."""
    what = {"rules": rules.to_dict(), "tc": time_control.to_dict() if time_control else None}
    digest = hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()
    return digest[:24]


@dataclass(frozen=True, slots=True)
class Matched:
    room: Room
    reply: JoinReply
    matched: bool
    """True when the player was seated in a room someone was waiting in."""


async def quick_play(
    service: RoomService,
    queue: QuickPlayQueue,
    rules: Rules,
    settings: RoomSettings,
    *,
    name: str | None = None,
) -> Matched:
    key = queue_key(rules, settings.time_control)
    while (room_id := await queue.pop(key)) is not None:
        seated = await _try_seat(service, queue, key, room_id, name)
        if seated is not None:
            return seated
    own = await service.create(rules, public=True, settings=settings)
    mine = await service.execute(own.room_id, Reserve(name))
    assert isinstance(mine.reply, JoinReply)
    while (other := await queue.offer(key, own.room_id)) is not None:
        seated = await _try_seat(service, queue, key, other, name)
        if seated is not None:  # someone opened a room at the same moment: join theirs
            await service.execute(own.room_id, Retire())
            return seated
    return Matched(mine.room, mine.reply, matched=False)


async def _try_seat(
    service: RoomService, queue: QuickPlayQueue, key: str, room_id: str, name: str | None
) -> Matched | None:
    """A seat in the queued room ``room_id``, or None when it cannot have one any more."""
    try:
        room = await service.load(room_id)
    except RoomError as exc:
        if exc.code is ErrorCode.ROOM_NOT_FOUND:
            return None
        raise
    if room.status is not Status.WAITING or any(seat.bot for seat in room.seats):
        return None
    if _deserted(room, service.now()):
        await service.execute(room_id, Retire())  # off the lobby too: nobody is there
        return None
    try:
        executed = await service.execute(room_id, Reserve(name))
    except RoomError as exc:
        if exc.code in (ErrorCode.ROOM_FULL, ErrorCode.GAME_OVER, ErrorCode.ROOM_NOT_FOUND):
            return None
        raise
    assert isinstance(executed.reply, JoinReply)
    if executed.room.status is Status.WAITING:  # three or four players: still seats free
        await queue.push(key, room_id, front=True)
    return Matched(executed.room, executed.reply, matched=True)


def _deserted(room: Room, now: float) -> bool:
    grace = room.settings.abandon_grace
    return bool(room.seats) and all(
        seat.away_since is not None and now - seat.away_since > grace for seat in room.seats
    )
