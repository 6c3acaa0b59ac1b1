"""A feed's repair that the store cannot answer now (Redis failing over, a partition healing)
is tried again and keeps what waits: the event that revealed the gap may be a game's last,
after which no later event would ever start another repair."""

from __future__ import annotations

import json

from core import MoveRequest, Rules
from rooms import ErrorCode, Feed, Role, RoomError, RoomService
from rooms.backends import MemoryStore
from rooms.room import Join, PlayMove


class UnreachableStore(MemoryStore):
    """A memory store whose event log cannot be read ``failures`` more times, as a Redis
    out of reach answers (the room itself stays readable: only the repair's read fails)."""

    failures = 0
    reads = 0

    async def events_since(self, room_id: str, version: int) -> list[str] | None:
        self.reads += 1
        if self.failures > 0:
            self.failures -= 1
            raise RoomError(ErrorCode.UNAVAILABLE, "the room store is unavailable; retry")
        return await super().events_since(room_id, version)


async def played(service: RoomService, room_id: str) -> list[str]:
    """Two players seated and a first move: the events' texts, versions 1 to 3."""
    texts = []
    for conn, name in (("x", "Ada"), ("o", "Bob")):
        texts.append((await service.execute(room_id, Join(conn, Role.PLAYER, name))).event_text)
    move = PlayMove("x", MoveRequest(row=0, col=0), 2, "m1")
    texts.append((await service.execute(room_id, move)).event_text)
    return [text for text in texts if text is not None]


async def test_a_repair_that_fails_for_now_is_tried_again_and_sends_the_last_event() -> None:
    store = UnreachableStore()
    service = RoomService(store)
    room_id = (await service.create(Rules(), public=False)).room_id
    sent: list[str] = []
    feed = Feed(room_id, service, sent.append)
    feed.start(1)  # the welcome was at version 1
    events = await played(service, room_id)
    store.failures = 2
    # Only the latest event arrives (a bus's re-delivery after its reconnect): a gap.
    feed.deliver(3, events[2])
    assert sent == [] and feed.repairs == 1
    await feed.settled()
    assert store.reads == 3  # two failed reads, then the one that answered
    assert [json.loads(text)["version"] for text in sent] == [2, 3]
    assert sent == events[1:] and feed.version == 3
    feed.close()


async def test_a_repair_of_a_room_that_is_gone_gives_up_on_what_waits() -> None:
    store = UnreachableStore()
    service = RoomService(store)
    sent: list[str] = []
    feed = Feed("gone-room", service, sent.append)
    feed.start(1)
    feed.deliver(3, '{"type":"moved","version":3}')
    await feed.settled()
    assert sent == [] and feed.version == 1 and feed._pending == []
    feed.close()
