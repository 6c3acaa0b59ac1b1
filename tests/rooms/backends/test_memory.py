"""What only the memory backend does: expiry, the room cap, closing, bus overflow, URLs."""

from __future__ import annotations

import pytest

from rooms import ErrorCode, RoomError, UnsupportedBackend, open_backend
from rooms.backends import MemoryBus, MemoryStore


class FakeClock:
    """Time as a value the test moves (the store reads a clock only for expiry)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_rooms_expire_after_their_ttl_and_free_their_place() -> None:
    clock = FakeClock()
    store = MemoryStore(room_ttl=60, max_rooms=2, clock=clock)
    assert await store.create("aaaa", "a", listed=True)
    assert await store.create("bbbb", "b", listed=False)
    with pytest.raises(RoomError) as info:
        await store.create("cccc", "c", listed=False)
    assert info.value.code is ErrorCode.UNAVAILABLE
    clock.now += 30
    assert await store.commit("bbbb", 0, "b1", "{}", listed=False)  # a write renews the ttl
    clock.now += 40
    assert await store.load("aaaa") is None and await store.listed(10) == []
    assert await store.load("bbbb") is not None
    assert await store.create("cccc", "c", listed=False)
    assert len(store) == 2


async def test_a_closed_store_is_unavailable() -> None:
    store = MemoryStore()
    await store.close()
    for call in (store.ping(), store.load("aaaa"), store.create("aaaa", "x", listed=False)):
        with pytest.raises(RoomError) as info:
            await call
        assert info.value.code is ErrorCode.UNAVAILABLE


async def test_bus_drops_on_overflow_instead_of_growing() -> None:
    bus = MemoryBus(buffer=2)
    subscription = await bus.subscribe("room")
    for i in range(5):
        await bus.publish("room", str(i))
    assert [await subscription.get(), await subscription.get()] == ["0", "1"]
    assert subscription.dropped == 3
    await subscription.close()
    assert bus.subscribers("room") == 0


def test_store_urls() -> None:
    backend = open_backend("memory://")
    assert backend.store.name == "memory" and not backend.shared
    redis = open_backend("redis://:secret@localhost:6379/0")  # nothing connects yet
    assert redis.store.name == "redis" and redis.shared
    with pytest.raises(UnsupportedBackend) as unknown:
        open_backend("postgres://user:hunter2@db/rooms")
    assert "hunter2" not in unknown.value.message and "***" in unknown.value.message
