"""Quick play: seat a player in the oldest public room waiting with the same rules, or open one.

Two requests at the same moment never end in two half-empty rooms or in one seat. The queue (one
per rules and time control) holds the ids of public rooms waiting for a player, oldest first.
Taking from it (``pop``) and "take the oldest, else queue mine" (``offer``) are each one atomic
step in the store, so of two simultaneous requests that both opened a room, the second to
``offer`` finds the first's room, sits there and withdraws its own (``Retire``). Seats are taken
by ``Reserve`` through the room's compare-and-set, so even a room id handed out twice cannot
seat two players on one seat. Entries whose room is gone or full, or whose player never
connected (or left) for ``abandon_grace`` seconds, are dropped when met.

A request may carry a join key, so that repeating it (its answer was lost) seats nobody twice.
The queue's request record, under the key's hash, names the room the request is seating its
player in, and is written before each ``Reserve`` there; the seat keeps the key's hash too
(rooms.room.seats). A repeat finds the room from the record and takes the seat again with a
fresh token (``Reserve(again=True)``), on any worker. While a request is still choosing a room
its record is *pending* for ``PENDING`` seconds: a repeat then is ``busy`` unless the seat is
found already; after that the first request counts as dead and the repeat starts afresh. A
record whose room no longer holds a seat with the key (the token resumed it, so the key is
spent; or the room is gone) is replaced by a fresh quick play.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from core import Rules
from rooms.backends.queue import QuickPlayQueue
from rooms.errors import ErrorCode, RoomError
from rooms.room.commands import JoinReply, Reserve, Retire
from rooms.room.config import RoomSettings, TimeControl
from rooms.room.handled import Status
from rooms.room.room import Room
from rooms.room.seats import hash_token
from rooms.service import RoomService

__all__ = ["PENDING", "REQUEST_TTL", "Matched", "queue_key", "quick_play"]

PENDING = 10.0
"""Seconds a request with a join key may take to seat its player before a repeat of it counts
it as dead and starts afresh (a repeat meanwhile gets ``busy``)."""
REQUEST_TTL = 3600.0
"""Seconds a request record lives after its last write: how long a repeat finds its seat."""
_CLAIMS = 4
"""Attempts at claiming a request's record against other requests with its key."""

Recorder = Callable[[str], Awaitable[None]]
"""Called with a room id before a ``Reserve`` there: the request's record names it."""


@dataclass(frozen=True, slots=True)
class _Request:
    """Who a request seats: the name, the join key (if any), how to record its room, and the
    verified identity its seat is linked to (if any)."""

    name: str | None
    join_key: str | None
    recorder: Recorder
    player_id: str | None = None


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
    join_key: str | None = None,
    player_id: str | None = None,
) -> Matched:
    """A seat for a player (see the module); with ``join_key``, the same seat as every
    earlier request with that key got, as long as the key is not spent. ``player_id`` (an
    identity the caller verified) is linked to a new seat."""
    if join_key is None:
        unkeyed = _Request(name, None, _unrecorded, player_id)
        return await _match(service, queue, rules, settings, unkeyed)
    request = hash_token(join_key)
    replacing: str | None = None
    for _ in range(_CLAIMS):
        pending = _record(service.now() + PENDING, None)
        current = await queue.claim_request(request, pending, REQUEST_TTL, replacing=replacing)
        if current is None:  # this request is the one seating the player now
            break
        until, room_id = _parse_record(current)
        if room_id is not None:
            again = await _seat_again(service, room_id, join_key)
            if again is not None:
                await queue.record_request(request, _record(None, room_id), REQUEST_TTL)
                return again
        if until is not None and until > service.now():
            raise RoomError(
                ErrorCode.BUSY,
                "a quick play with this join_key is still under way; try again in a moment",
                retry_after=until - service.now(),
            )
        replacing = current  # spent, or its request died: start afresh
    else:
        raise RoomError(ErrorCode.BUSY, "quick play requests with this join_key race; try again")

    async def recorder(room_id: str) -> None:
        pending = _record(service.now() + PENDING, room_id)
        await queue.record_request(request, pending, REQUEST_TTL)

    seating = _Request(name, join_key, recorder, player_id)
    matched = await _match(service, queue, rules, settings, seating)
    await queue.record_request(request, _record(None, matched.room.room_id), REQUEST_TTL)
    return matched


async def _unrecorded(room_id: str) -> None:
    """The recorder of a request without a join key: nothing to record."""


def _record(pending_until: float | None, room_id: str | None) -> str:
    """A request record: the room id, settled; ``?<until>|<room id or nothing>`` while the
    request is still seating its player (room ids never hold ``?`` or ``|``)."""
    if pending_until is None:
        assert room_id is not None
        return room_id
    return f"?{pending_until!r}|{room_id or ''}"


def _parse_record(record: str) -> tuple[float | None, str | None]:
    """``(pending until or None, room id or None)`` of a record (``_record``); a record this
    code cannot read counts as a dead request's."""
    if not record.startswith("?"):
        return None, record or None
    until, _, room_id = record[1:].partition("|")
    try:
        return float(until), room_id or None
    except ValueError:
        return None, None


async def _seat_again(service: RoomService, room_id: str, join_key: str) -> Matched | None:
    """The seat taken in ``room_id`` with ``join_key``, with a fresh token; None when the room
    holds no such seat (any more)."""
    try:
        executed = await service.execute(room_id, Reserve(join_key=join_key, again=True))
    except RoomError as exc:
        if exc.code in (ErrorCode.BAD_TOKEN, ErrorCode.ROOM_NOT_FOUND):
            return None
        raise
    assert isinstance(executed.reply, JoinReply)
    # the request that opened a room sat on its first mark; one that matched sat on a later one
    matched = executed.reply.mark != executed.room.rules.marks[0]
    return Matched(executed.room, executed.reply, matched=matched)


async def _match(
    service: RoomService,
    queue: QuickPlayQueue,
    rules: Rules,
    settings: RoomSettings,
    request: _Request,
) -> Matched:
    """Seat the player in the oldest waiting room, else in a new one (see the module)."""
    key = queue_key(rules, settings.time_control)
    while (room_id := await queue.pop(key)) is not None:
        seated = await _try_seat(service, queue, key, room_id, request)
        if seated is not None:
            return seated
    own = await service.create(rules, public=True, settings=settings)
    await request.recorder(own.room_id)
    mine = await service.execute(own.room_id, _reserve(request))
    assert isinstance(mine.reply, JoinReply)
    while (other := await queue.offer(key, own.room_id)) is not None:
        seated = await _try_seat(service, queue, key, other, request)
        if seated is not None:  # someone opened a room at the same moment: join theirs
            await service.execute(own.room_id, Retire())
            return seated
    return Matched(mine.room, mine.reply, matched=False)


def _reserve(request: _Request) -> Reserve:
    return Reserve(request.name, request.join_key, player_id=request.player_id)


async def _try_seat(
    service: RoomService, queue: QuickPlayQueue, key: str, room_id: str, request: _Request
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
    await request.recorder(room_id)
    try:
        executed = await service.execute(room_id, _reserve(request))
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
