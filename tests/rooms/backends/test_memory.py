"""What only the memory backend does: expiry, the room cap, closing, bus overflow, URLs."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core import MoveRequest, Rules
from rooms import ErrorCode, Role, RoomError, RoomService, UnsupportedBackend, open_backend
from rooms.backends import MemoryBus, MemoryStore, StoredRoom
from rooms.protocol import decode_room, encode_room
from rooms.room import Join, PlayMove


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


async def test_a_deferred_text_is_made_once_when_first_read() -> None:
    store = MemoryStore()
    assert await store.create("aaaa", "a0", listed=True)
    made: list[str] = []

    def text(value: str) -> Callable[[], str]:
        def make() -> str:
            made.append(value)
            return value

        return make

    assert await store.commit("aaaa", 0, text("a1"), "{}", listed=True)
    assert await store.commit("aaaa", 1, text("a2"), "{}", listed=True)
    assert not (await store.swap("aaaa", 1, text("stale"), "{}", listed=True)).committed
    assert made == ["a2"]  # the refusal carried the current room: only its text was made
    assert await store.load("aaaa") == StoredRoom(2, "a2")
    assert [room.data for room in await store.listed(10)] == ["a2"]
    assert made == ["a2"]  # once
    assert await store.commit("aaaa", 2, "a3", "{}", listed=True)  # a text as it is
    assert await store.load("aaaa") == StoredRoom(3, "a3") and made == ["a2"]


async def test_the_service_commits_rooms_unencoded_and_reads_them_encoded() -> None:
    store = MemoryStore()
    service = RoomService(store)
    room = await service.create(Rules(), public=False)
    for conn in ("x", "o"):
        await service.execute(room.room_id, Join(conn, Role.PLAYER, conn, None))
    executed = await service.execute(
        room.room_id, PlayMove("x", MoveRequest(col=1, row=1), 2, "m1")
    )
    stored = await store.load(room.room_id)
    assert stored is not None and stored.version == executed.room.version == 3
    assert stored.data == encode_room(executed.room)
    assert decode_room(stored.data).game.board == executed.room.game.board
