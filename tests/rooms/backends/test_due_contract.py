"""The store's deadline index and players' records (rooms.backends.due), on every backend:
a correspondence commit indexes its room's deadline in the same step (none with a refused
commit), a commit without one unindexes it, a repair changes only an entry still as seen, and
the room is recorded under its players. Deadlines far in the future (year 2900): no server's
scanner sharing the test Redis ever looks at them."""

from __future__ import annotations

import secrets
from typing import Any

from rooms import Backend
from rooms.backends.due import DueChange, DueIndex
from rooms.backends.memory import MemoryStore
from rooms.backends.redis.store import RedisStore
from rooms.room.config import DAY
from tests.support.backends import event

FAR = 3.0e10
"""Seconds since the epoch around the year 2900."""


def rid() -> str:
    return "d" + secrets.token_hex(8)


def index_of(backend: Backend) -> DueIndex:
    store = backend.store
    assert isinstance(store, DueIndex)
    return store


async def mine(index: DueIndex, rooms: set[str], now: float) -> list[tuple[str, float]]:
    return [(r, at) for r, at in await index.due_rooms(now, 10_000) if r in rooms]


async def test_a_commit_indexes_its_deadline_in_the_same_step(backend: Backend) -> None:
    store: Any = backend.store  # its swap takes ``due`` (the Store protocol leaves it out)
    index = index_of(backend)
    early, late = rid(), rid()
    for room in (early, late):
        assert await store.create(room, "v0", listed=False)
    due = DueChange(FAR + 5, 60.0, ("p1", "p2"))
    assert (await store.swap(late, 0, "v1", event(1), listed=False, due=due)).committed
    assert (
        await store.swap(early, 0, "v1", event(1), listed=False, due=DueChange(FAR + 1, 60.0))
    ).committed
    ours = {early, late}
    assert await mine(index, ours, FAR) == []
    assert await mine(index, ours, FAR + 1) == [(early, FAR + 1)]
    assert await mine(index, ours, FAR + 9) == [(early, FAR + 1), (late, FAR + 5)]
    # a refused commit changes nothing, its deadline included
    refused = await store.swap(late, 0, "lost", event(1), listed=False, due=DueChange(None, 1))
    assert not refused.committed
    assert await mine(index, ours, FAR + 9) == [(early, FAR + 1), (late, FAR + 5)]
    # a commit without a deadline (the game ended) unindexes the room
    gone = await store.swap(late, 1, "v2", event(2), listed=False, due=DueChange(None, 60.0))
    assert gone.committed
    assert await mine(index, ours, FAR + 9) == [(early, FAR + 1)]
    assert late in await index.player_rooms("p1", 100)
    assert late in await index.player_rooms("p2", 100)
    await index.forget_player_room("p1", late)
    assert late not in await index.player_rooms("p1", 100)


async def test_a_repair_changes_only_an_entry_still_as_seen(backend: Backend) -> None:
    store: Any = backend.store  # its swap takes ``due`` (the Store protocol leaves it out)
    index = index_of(backend)
    room = rid()
    await store.create(room, "v0", listed=False)
    await store.swap(room, 0, "v1", event(1), listed=False, due=DueChange(FAR + 2, 60.0))
    assert not await index.repair_due(room, FAR + 1, None)  # not what the index holds
    assert await mine(index, {room}, FAR + 9) == [(room, FAR + 2)]
    assert await index.repair_due(room, FAR + 2, FAR + 3)
    assert await mine(index, {room}, FAR + 9) == [(room, FAR + 3)]
    assert await index.repair_due(room, FAR + 3, None)
    assert await mine(index, {room}, FAR + 9) == []


async def test_a_correspondence_room_lives_past_the_store_s_idle_time() -> None:
    now = [0.0]
    store = MemoryStore(room_ttl=60.0, clock=lambda: now[0])
    room, plain = rid(), rid()
    for each in (room, plain):
        await store.create(each, "v0", listed=False)
    await store.commit(plain, 0, "v1", event(1), listed=False)
    await store.commit(room, 0, "v1", event(1), listed=False, due=DueChange(FAR, 3 * DAY))
    now[0] = 2 * DAY  # weeks of idle rooms, compressed: the plain room is long gone
    assert await store.load(plain) is None
    assert (await store.load(room)) is not None
    now[0] = 3 * DAY + 1
    assert await store.load(room) is None


async def test_redis_keeps_a_correspondence_room_as_long_as_its_deadline_needs(
    redis_url: str,
) -> None:
    store = RedisStore(redis_url, room_ttl=60.0)
    await store.open()
    try:
        room = rid()
        await store.create(room, "v0", listed=False)
        await store.swap(room, 0, "v1", event(1), listed=False, due=DueChange(FAR, 3 * DAY))
        ttl = await store.client.pttl(store.layout.room(room).room)
        assert 2.9 * DAY * 1000 < ttl <= 3 * DAY * 1000
        await store.swap(room, 1, "v2", event(2), listed=False)  # a plain commit: the store's
        assert await store.client.pttl(store.layout.room(room).room) <= 60_000
        await store.repair_due(room, FAR, None)
    finally:
        await store.close()
