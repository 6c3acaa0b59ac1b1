"""Helpers for the Redis fault tests: rooms played through the real service with retries,
and the checks that nothing was lost or applied twice."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from core import MoveRequest, Rules
from rooms import ErrorCode, Feed, Hub, Role, RoomError, RoomService
from rooms.protocol import event_version
from rooms.room import Join, MoveReply, PlayMove

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


async def retrying(action: object, *, seconds: float = 30.0) -> object:
    """Await ``action()`` until it does not raise a retryable RoomError (bounded)."""
    deadline = time.monotonic() + seconds
    for _ in range(100_000):
        try:
            return await action()  # type: ignore[operator]
        except RoomError as exc:
            if exc.code not in RETRYABLE or time.monotonic() > deadline:
                raise
        await asyncio.sleep(0.05)
    raise AssertionError("gave up retrying")


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
    version = (await retrying(lambda: service.load(played.room_id))).version  # type: ignore[attr-defined]
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
        reply = executed.reply  # type: ignore[attr-defined]
        assert isinstance(reply, MoveReply) and reply.move_id == move_id
        played.acked[move_id] = reply
        version = reply.version
        if pace:
            await asyncio.sleep(pace)


async def check_nothing_lost_or_doubled(service: RoomService, played: PlayedRoom) -> None:
    room = await retrying(lambda: service.load(played.room_id))
    assert room.game.is_over  # type: ignore[attr-defined]
    assert len(room.game.history_indices) == len(CELLS) == len(played.acked)  # type: ignore[attr-defined]
    landed = {**room.seats[0].moves, **room.seats[1].moves}  # type: ignore[attr-defined]
    assert landed == {move_id: reply.version for move_id, reply in played.acked.items()}
    texts = await service.events_since(played.room_id, 0)
    assert texts is not None
    assert [event_version(text) for text in texts] == list(range(1, room.version + 1))  # type: ignore[attr-defined]
    assert played.sent_versions == list(range(2, room.version + 1))  # type: ignore[attr-defined]
