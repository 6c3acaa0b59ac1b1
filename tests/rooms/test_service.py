"""The service: one write path, compare-and-set under real concurrency, nothing lost."""

from __future__ import annotations

import asyncio
import json

import pytest

from core import MoveRequest, Rules
from rooms import ErrorCode, Role, RoomError, RoomService
from rooms.backends import MemoryStore, StoredRoom
from rooms.backends.due import DueChange
from rooms.backends.memory import RoomText
from rooms.room import Join, JoinReply, Leave, PlayMove
from rooms.room.events import Spectators
from tests.support.handled import reply_of


class NetworkLikeStore(MemoryStore):
    """The memory store with a scheduling point before every call, as a network store has:
    other tasks run between a load and its commit, so compare-and-set races really happen."""

    async def load(self, room_id: str) -> StoredRoom | None:
        await asyncio.sleep(0)  # the scheduling point under test, as a network call has
        return await super().load(room_id)

    async def commit(
        self,
        room_id: str,
        expected: int,
        data: RoomText,
        event: str,
        *,
        listed: bool,
        finished: bool | None = None,
        archive_unchanged: bool = False,
        publish: bool = True,
        due: DueChange | None = None,
    ) -> bool:
        await asyncio.sleep(0)  # the scheduling point under test, as a network call has
        return await super().commit(
            room_id,
            expected,
            data,
            event,
            listed=listed,
            finished=finished,
            archive_unchanged=archive_unchanged,
            publish=publish,
            due=due,
        )


async def test_create_validates_rules_and_names_the_field() -> None:
    service = RoomService(MemoryStore())
    with pytest.raises(RoomError) as info:
        await service.create({"rows": 3, "cols": 3, "k": 7}, public=False)
    assert (info.value.code, info.value.field) == (ErrorCode.INVALID_RULES, "k")
    room = await service.create({"rows": 6, "cols": 7, "k": 4, "gravity": True}, public=True)
    assert len(room.room_id) == 8 and room.version == 0
    private = await service.create(Rules(), public=False)
    assert len(private.room_id) >= 22


async def test_unknown_room_is_room_not_found() -> None:
    service = RoomService(MemoryStore())
    for room_id in ("nosuchroom", "../../etc", ""):
        with pytest.raises(RoomError) as info:
            await service.execute(room_id, Join("c", Role.SPECTATOR))
        assert info.value.code is ErrorCode.ROOM_NOT_FOUND


async def test_many_workers_joining_at_once_lose_nothing() -> None:
    """50 tasks, each through its own service (no shared lock: like 50 workers)."""
    store = NetworkLikeStore()
    room = await RoomService(store).create(Rules(), public=False)
    services = [RoomService(store) for _ in range(50)]
    await asyncio.gather(
        *(
            svc.execute(room.room_id, Join(f"s{i}", Role.SPECTATOR))
            for i, svc in enumerate(services)
        )
    )
    assert sum(svc.conflicts for svc in services) > 0, "the race never happened"
    final = await services[0].load(room.room_id)
    assert final.version == 50 and sorted(final.spectators) == sorted(f"s{i}" for i in range(50))
    events = await store.events_since(room.room_id, 0)
    assert events is not None
    assert [json.loads(e)["version"] for e in events] == list(range(1, 51))
    assert sorted(json.loads(e)["count"] for e in events) == list(range(1, 51))


async def test_racing_moves_on_one_version_exactly_one_lands() -> None:
    for _ in range(20):
        store = NetworkLikeStore()
        service = RoomService(store)
        room = await service.create(Rules(), public=False)
        x = await service.execute(room.room_id, Join("x1", Role.PLAYER))
        await service.execute(room.room_id, Join("o", Role.PLAYER))
        token = reply_of(x, JoinReply).token
        await service.execute(room.room_id, Join("x2", Role.PLAYER, token=token))
        version = (await service.load(room.room_id)).version
        workers = [RoomService(store), RoomService(store)]
        results = await asyncio.gather(
            workers[0].execute(room.room_id, PlayMove("x1", MoveRequest(0, 0), version, "a")),
            workers[1].execute(room.room_id, PlayMove("x2", MoveRequest(2, 2), version, "b")),
            return_exceptions=True,
        )
        landed = [r for r in results if not isinstance(r, BaseException)]
        errors = [r for r in results if isinstance(r, RoomError)]
        assert len(landed) == 1 and len(errors) == 1
        assert errors[0].code is ErrorCode.STALE_VERSION
        assert (await service.load(room.room_id)).game.ply == 1


async def test_local_lock_serialises_tasks_of_one_process() -> None:
    store = NetworkLikeStore()
    service = RoomService(store)
    room = await service.create(Rules(), public=False)
    await asyncio.gather(
        *(service.execute(room.room_id, Join(f"s{i}", Role.SPECTATOR)) for i in range(20))
    )
    assert service.conflicts == 0
    assert (await service.load(room.room_id)).version == 20


async def test_events_since_up_to_a_version_and_leave() -> None:
    service = RoomService(MemoryStore(log_size=3))
    room = await service.create(Rules(), public=True)
    for i in range(5):
        await service.execute(room.room_id, Join(f"s{i}", Role.SPECTATOR))
    left = await service.execute(room.room_id, Leave("s0"))
    assert left.event == Spectators(version=6, count=4, due=None)
    texts = await service.events_since(room.room_id, 3, upto=5)
    assert texts is not None and [json.loads(t)["version"] for t in texts] == [4, 5]
    assert await service.events_since(room.room_id, 1) is None  # the log starts at 4
    assert await service.events_since(room.room_id, 7, upto=6) is None
    assert await service.events_since("bad id!", 0) is None


async def test_public_list_shows_waiting_rooms_first_and_hides_finished_games() -> None:
    service = RoomService(MemoryStore())
    playing = await service.create(Rules(), public=True)
    waiting = await service.create(Rules(), public=True)
    await service.create(Rules(), public=False)
    for conn in ("a", "b"):
        await service.execute(playing.room_id, Join(conn, Role.PLAYER))
    await service.execute(waiting.room_id, Join("c", Role.PLAYER))
    listed = await service.list_public()
    assert [(r["room_id"], r["status"]) for r in listed] == [
        (waiting.room_id, "waiting"),
        (playing.room_id, "playing"),
    ]
    version = 2
    for conn, row, col in [("a", 0, 0), ("b", 1, 0), ("a", 0, 1), ("b", 1, 1), ("a", 0, 2)]:
        await service.execute(
            playing.room_id, PlayMove(conn, MoveRequest(col, row), version, "m" + str(version))
        )
        version += 1
    assert [r["room_id"] for r in await service.list_public()] == [waiting.room_id]


async def test_a_room_changing_too_fast_is_busy_and_the_loser_changed_nothing() -> None:
    store = NetworkLikeStore()
    room = await RoomService(store).create(Rules(), public=False)
    services = [RoomService(store, max_attempts=1) for _ in range(5)]
    results = await asyncio.gather(
        *(
            svc.execute(room.room_id, Join(f"s{i}", Role.SPECTATOR))
            for i, svc in enumerate(services)
        ),
        return_exceptions=True,
    )
    busy = [r for r in results if isinstance(r, RoomError)]
    assert busy and all(error.code is ErrorCode.BUSY for error in busy)
    final = await services[0].load(room.room_id)
    assert final.version == len(results) - len(busy) == len(final.spectators)
