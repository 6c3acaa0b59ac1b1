"""Helpers for the Redis fault tests: rooms played through the real service with retries,
and the checks that nothing was lost or applied twice."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from core import MoveRequest, Rules
from rooms import ErrorCode, Feed, Hub, Role, RoomError, RoomService
from rooms.protocol import event_version
from rooms.room import Join, MoveReply, PlayMove
from tests.support import waiting

__all__ = ["PlayedRoom", "RETRYABLE", "open_room", "play", "retrying"]

RETRYABLE = {ErrorCode.UNAVAILABLE, ErrorCode.BUSY}
# A 5x5 board with k=5 and this order ends in a draw only at the last cell, so every
# move of the script is played (columns shift by two on each row: no five in a line).
CELLS = [(col, row) for row in range(5) for col in ((row * 2 + c) % 5 for c in range(5))]
RULES = Rules(rows=5, cols=5, k=5)


@dataclass(slots=True)
class PlayedRoom:
    room_id: str
    feed: Feed
    sent: list[str]
    acked: dict[str, MoveReply] = field(default_factory=dict)
    retries: int = 0

    @property
    def sent_versions(self) -> list[int]:
        return [event_version(text) for text in self.sent]


def retryable(exc: Exception) -> bool:
    """What a caller retries while Redis is down or busy: ``unavailable`` or ``busy``."""
    return isinstance(exc, RoomError) and exc.code in RETRYABLE


async def retrying(action: Callable[[], Awaitable[Any]], *, seconds: float = 30.0) -> Any:
    """``await action()`` until it does not raise a retryable RoomError (bounded)."""
    return await waiting.retrying(
        action, "an answer while Redis recovers", transient=retryable, timeout=seconds
    )


async def open_room(service: RoomService, hub: Hub) -> PlayedRoom:
    """A private room with a spectator feed attached first, then two seated players."""
    room = await service.create(RULES, public=False)
    sent: list[str] = []
    feed = Feed(room.room_id, service, sent.append)
    await hub.attach(room.room_id, feed)
    joined = await service.execute(room.room_id, Join("watcher", Role.SPECTATOR))
    feed.start(joined.room.version)
    await service.execute(room.room_id, Join("x", Role.PLAYER, "X"))
    await service.execute(room.room_id, Join("o", Role.PLAYER, "O"))
    return PlayedRoom(room.room_id, feed, sent)


async def play(service: RoomService, played: PlayedRoom, *, pace: float = 0.0) -> None:
    """Play the whole script; every move is retried with its move_id until acknowledged."""
    version = (await retrying(lambda: service.load(played.room_id))).version
    for index, (col, row) in enumerate(CELLS):
        conn, move_id = ("x", "o")[index % 2], f"m{index:02d}"
        command = PlayMove(conn, MoveRequest(col=col, row=row), version, move_id)
        attempts = 0

        async def attempt(command: PlayMove = command) -> object:
            nonlocal attempts
            attempts += 1
            return await service.execute(played.room_id, command)

        executed = await retrying(attempt)
        played.retries += attempts - 1
        reply = executed.reply
        assert isinstance(reply, MoveReply) and reply.move_id == move_id
        played.acked[move_id] = reply
        version = reply.version
        if pace:
            await asyncio.sleep(pace)  # the test: moves spread over the fault, as people play


async def check_nothing_lost_or_doubled(service: RoomService, played: PlayedRoom) -> None:
    room = await retrying(lambda: service.load(played.room_id))
    assert room.game.is_over
    assert len(room.game.history_indices) == len(CELLS) == len(played.acked)
    landed = {**room.seats[0].moves, **room.seats[1].moves}
    assert landed == {move_id: reply.version for move_id, reply in played.acked.items()}
    texts = await service.events_since(played.room_id, 0)
    assert texts is not None
    assert [event_version(text) for text in texts] == list(range(1, room.version + 1))
    assert played.sent_versions == list(range(2, room.version + 1))
