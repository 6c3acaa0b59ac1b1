"""The service's per-room local locks: one command at a time per room in a process, the
table forgotten when the last command leaves (also a command cancelled while waiting),
and nothing held without local locks."""

from __future__ import annotations

import asyncio

import pytest

from core import Rules
from rooms import ErrorCode, Role, RoomError, RoomService
from rooms.backends import MemoryStore, StoredRoom
from rooms.room import Join
from tests.support.waiting import eventually


class GatedStore(MemoryStore):
    """The memory store whose loads read the room, then wait for ``gate`` before they
    answer: a command stays inside its lock, holding what it read."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.loads = 0

    async def load(self, room_id: str) -> StoredRoom | None:
        self.loads += 1
        stored = await super().load(room_id)
        await self.gate.wait()
        return stored


async def _room(store: MemoryStore) -> str:
    return (await RoomService(store).create(Rules(), public=False)).room_id


async def test_commands_of_one_room_wait_their_turn_and_the_table_empties() -> None:
    store = GatedStore()
    room_id = await _room(store)
    service = RoomService(store)  # its own cache holds nothing: every command loads
    tasks = [
        asyncio.create_task(service.execute(room_id, Join(f"s{i}", Role.SPECTATOR)))
        for i in range(3)
    ]
    await eventually(lambda: service._locks.users(room_id) == 3, "three at the room's lock")
    assert store.loads == 1  # the first holds the lock inside its load; two wait
    store.gate.set()
    await asyncio.gather(*tasks)
    assert len(service._locks) == 0
    assert service.conflicts == 0
    assert (await service.load(room_id)).spectators == ["s0", "s1", "s2"]


async def test_a_command_cancelled_while_waiting_leaves_no_trace() -> None:
    store = GatedStore()
    room_id = await _room(store)
    service = RoomService(store)
    first = asyncio.create_task(service.execute(room_id, Join("a", Role.SPECTATOR)))
    waiting = asyncio.create_task(service.execute(room_id, Join("b", Role.SPECTATOR)))
    await eventually(lambda: service._locks.users(room_id) == 2, "two at the room's lock")
    waiting.cancel()
    await eventually(waiting.done, "the cancelled command gone")
    assert waiting.cancelled() and service._locks.users(room_id) == 1
    store.gate.set()
    await first
    assert len(service._locks) == 0
    assert (await service.load(room_id)).spectators == ["a"]


async def test_a_refused_command_releases_the_lock() -> None:
    store = MemoryStore()
    room_id = await _room(store)
    service = RoomService(store)
    await service.execute(room_id, Join("a", Role.SPECTATOR))
    for _ in range(2):  # the second would wait forever on a lock the first kept
        with pytest.raises(RoomError) as info:
            await service.execute(room_id, Join("a", Role.SPECTATOR))
        assert info.value.code is ErrorCode.ALREADY_JOINED
    assert len(service._locks) == 0


async def test_without_local_locks_nothing_is_held() -> None:
    store = GatedStore()
    room_id = await _room(store)
    service = RoomService(store, local_locks=False)
    tasks = [
        asyncio.create_task(service.execute(room_id, Join(f"s{i}", Role.SPECTATOR)))
        for i in range(3)
    ]
    await eventually(lambda: store.loads == 3, "all three loading at once")
    assert len(service._locks) == 0  # nothing held
    store.gate.set()
    await asyncio.gather(*tasks)
    assert service.conflicts >= 2  # they raced: compare-and-set settled it
    assert sorted((await service.load(room_id)).spectators) == ["s0", "s1", "s2"]
