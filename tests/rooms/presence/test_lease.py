"""A worker's lease over time, on the memory registry with a clock the test moves: a slow
worker keeps its lease; one that comes back after it expired takes a new id, closes the
old id's connections (they resume) and refuses joins under it; a departure the store
could not record is retried at every heartbeat, the room staying indexed meanwhile."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from core import Rules
from rooms import ErrorCode, LeaseLost, Presence, Role, RoomError, RoomService, Sweeper, worker_of
from rooms.backends import MemoryRegistry, MemoryStore
from rooms.room import Join
from tests.support.cut_off import Clock, CutOffStore
from tests.support.waiting import eventually

TTL = 10.0


_STARTED: list[Presence] = []


@pytest.fixture
async def setup(
    clock: Clock, store: CutOffStore, service: RoomService
) -> AsyncIterator[tuple[RoomService, MemoryRegistry, CutOffStore]]:
    yield service, MemoryRegistry(clock=clock), store
    while _STARTED:
        await _STARTED.pop().close()


async def started(registry: MemoryRegistry, service: RoomService, clock: Clock) -> Presence:
    """A registered worker; its background heartbeat waits TTL / 3 real seconds, longer
    than a test, so only the test's own ``beat()`` calls renew it."""
    presence = Presence(registry, service, ttl=TTL, clock=clock, holder="test:1")
    await presence.start()
    _STARTED.append(presence)
    return presence


async def test_a_slow_worker_renews_in_time_and_keeps_everything(
    setup: tuple[RoomService, MemoryRegistry, CutOffStore],
    clock: Clock,
) -> None:
    service, registry, _ = setup
    slow, other = await started(registry, service, clock), await started(registry, service, clock)
    room = await service.create(Rules(), public=False)
    conn, closed = slow.connection_id(), []
    await slow.enter(room.room_id, conn, lambda: closed.append(conn))
    await service.execute(room.room_id, Join(conn, Role.PLAYER, "Ada"))
    worker = slow.worker
    clock.now += TTL * 0.9  # a long pause, still shorter than the lease
    await slow.beat()
    await other.beat()
    clock.now += TTL * 0.9
    assert await Sweeper(registry, service, other).sweep() == 0
    assert slow.worker == worker and slow.losses == 0 and closed == []
    assert (await service.load(room.room_id)).seats[0].connections == [conn]


async def test_a_worker_back_after_its_lease_expired_starts_over_under_a_new_id(
    setup: tuple[RoomService, MemoryRegistry, CutOffStore],
    clock: Clock,
) -> None:
    service, registry, _ = setup
    frozen, other = await started(registry, service, clock), await started(registry, service, clock)
    room = await service.create(Rules(), public=False)
    conn, closed = frozen.connection_id(), []
    await frozen.enter(room.room_id, conn, lambda: closed.append(conn))
    await service.execute(room.room_id, Join(conn, Role.PLAYER, "Ada"))
    unjoined = frozen.connection_id()  # a socket that had not sent its join yet
    old = frozen.worker

    clock.now += TTL + 1  # frozen for longer than its lease; the other worker beat on
    await other.beat()
    assert not frozen.alive
    with pytest.raises(LeaseLost):  # even before its heartbeat ran, it knows
        await frozen.enter(room.room_id, unjoined, lambda: None)
    assert await Sweeper(registry, service, other).sweep() == 1
    assert (await service.load(room.room_id)).seats[0].connections == []

    await frozen.beat()  # the heartbeat after the thaw
    assert frozen.worker != old and frozen.losses == 1 and frozen.alive
    assert closed == [conn], "the old id's connection was not told to resume"
    assert await registry.holder(frozen.worker) == "test:1"
    assert await frozen.leave(room.room_id, conn)  # its close: nothing left to record
    with pytest.raises(LeaseLost):
        await frozen.enter(room.room_id, unjoined, lambda: None)
    fresh = frozen.connection_id()
    assert worker_of(fresh) == frozen.worker
    await frozen.enter(room.room_id, fresh, lambda: None)
    assert await registry.rooms(frozen.worker, 10) == [room.room_id]


async def test_a_lease_found_gone_at_a_join_is_replaced_at_once(
    setup: tuple[RoomService, MemoryRegistry, CutOffStore],
    clock: Clock,
) -> None:
    service, registry, _ = setup
    presence = await started(registry, service, clock)
    room = await service.create(Rules(), public=False)
    await registry.release(presence.worker)  # as if it had expired and been claimed
    old = presence.worker
    with pytest.raises(LeaseLost) as refused:
        await presence.enter(room.room_id, presence.connection_id(), lambda: None)
    assert refused.value.code is ErrorCode.UNAVAILABLE and "reconnect" in refused.value.message
    assert presence.worker != old and not presence.alive
    await presence.beat()
    assert presence.alive and presence.losses == 1


async def test_an_unrecorded_departure_is_retried_and_keeps_the_room_indexed(
    setup: tuple[RoomService, MemoryRegistry, CutOffStore],
    clock: Clock,
) -> None:
    service, registry, store = setup
    presence = await started(registry, service, clock)
    room = await service.create(Rules(), public=False)
    first, second = presence.connection_id(), presence.connection_id()
    for conn in (first, second):
        await presence.enter(room.room_id, conn, lambda: None)
        await service.execute(room.room_id, Join(conn, Role.SPECTATOR))
    assert await presence.leave(room.room_id, first)
    assert await registry.rooms(presence.worker, 10) == [room.room_id]  # second is there

    store.down = True
    assert not await presence.leave(room.room_id, second)
    assert presence.pending() == 1
    await presence.beat()  # still down: kept
    assert presence.pending() == 1
    assert await registry.rooms(presence.worker, 10) == [room.room_id]
    store.down = False
    await presence.beat()
    assert presence.pending() == 0
    assert (await service.load(room.room_id)).spectators == []
    assert await registry.rooms(presence.worker, 10) == []


async def test_a_clean_shutdown_releases_the_lease(
    setup: tuple[RoomService, MemoryRegistry, CutOffStore],
    clock: Clock,
) -> None:
    service, registry, _ = setup
    leaving, staying = (
        await started(registry, service, clock),
        await started(registry, service, clock),
    )
    worker = leaving.worker
    await leaving.close()
    assert await registry.holder(worker) is None
    sweeper = Sweeper(registry, service, staying)
    await sweeper.sweep()
    assert sweeper.finished == 1  # nothing was left to clean: forgotten at once


class GatedRegistry(MemoryRegistry):
    """Holds every ``remove_room`` at a gate, as a slow Redis would."""

    def __init__(self, clock: Clock) -> None:
        super().__init__(clock=clock)
        self.gate = asyncio.Event()
        self.removing = asyncio.Event()

    async def remove_room(self, worker: str, room_id: str) -> None:
        self.removing.set()
        await self.gate.wait()
        await super().remove_room(worker, room_id)


async def test_a_join_while_the_room_is_being_unindexed_leaves_it_indexed(
    clock: Clock,
) -> None:
    registry = GatedRegistry(clock)
    service = RoomService(MemoryStore())
    presence = Presence(registry, service, ttl=TTL, clock=clock)
    await presence.start()
    try:
        room = await service.create(Rules(), public=False)
        first, second = presence.connection_id(), presence.connection_id()
        await presence.enter(room.room_id, first, lambda: None)
        leaving = asyncio.create_task(presence.leave(room.room_id, first))
        await registry.removing.wait()  # the last connection's unindexing is on its way
        entering = asyncio.create_task(presence.enter(room.room_id, second, lambda: None))
        key = (presence.worker, room.room_id)  # the room's lock in the worker (private)
        await eventually(lambda: presence._rooms._locks.users(key) == 2, "the join waiting")
        registry.gate.set()
        await asyncio.gather(leaving, entering)
        assert await registry.rooms(presence.worker, 10) == [room.room_id]  # not lost
    finally:
        await presence.close()


class SlowRenewals(MemoryRegistry):
    """Holds every ``renew`` at a gate, as a slow Redis would."""

    def __init__(self, clock: Clock) -> None:
        super().__init__(clock=clock)
        self.gate = asyncio.Event()
        self.renewing = asyncio.Event()

    async def renew(self, worker: str, ttl: float) -> bool:
        self.renewing.set()
        await self.gate.wait()
        return await super().renew(worker, ttl)


async def test_a_loss_found_by_a_join_during_a_renewal_is_counted_once(clock: Clock) -> None:
    registry = SlowRenewals(clock)
    service = RoomService(MemoryStore())
    presence = Presence(registry, service, ttl=TTL, clock=clock, holder="host:7")
    await presence.start()
    try:
        room = await service.create(Rules(), public=False)
        old = presence.worker
        await registry.release(old)  # gone; the heartbeat has not found out yet
        beating = asyncio.create_task(presence.beat())
        await registry.renewing.wait()
        with pytest.raises(LeaseLost):  # a join finds out first, and moves to a new id
            await presence.enter(room.room_id, presence.connection_id(), lambda: None)
        registry.gate.set()
        await beating  # then the renewal of the old id fails
        assert presence.losses == 1 and presence.worker != old and presence.alive
        assert await registry.holder(presence.worker) == "host:7"
    finally:
        await presence.close()


def test_settings_are_checked() -> None:
    service = RoomService(MemoryStore())
    with pytest.raises(ValueError, match="ttl"):
        Presence(MemoryRegistry(), service, ttl=0)
    presence = Presence(MemoryRegistry(), service)
    with pytest.raises(ValueError, match="interval"):
        Sweeper(MemoryRegistry(), service, presence, interval=-1)


class RefusingRegistry(MemoryRegistry):
    """Refuses ``refusals`` registrations with ``code``, as a Redis primary mid-failover
    refuses writes (NOREPLICAS, READONLY) although it answers."""

    def __init__(self, refusals: int, code: ErrorCode = ErrorCode.UNAVAILABLE) -> None:
        super().__init__()
        self.refusals, self.code, self.tries = refusals, code, 0

    async def register(self, worker: str, ttl: float, *, holder: str) -> None:
        self.tries += 1
        if self.tries <= self.refusals:
            raise RoomError(self.code, "the room store (Redis) is unavailable (NOREPLICAS)")
        await super().register(worker, ttl, holder=holder)


async def test_a_registration_refused_during_a_failover_is_retried() -> None:
    registry = RefusingRegistry(refusals=3)
    presence = Presence(registry, RoomService(MemoryStore()), ttl=TTL, holder="host:1")
    try:
        await presence.start()
        assert registry.tries == 4 and presence.alive
        assert await registry.holder(presence.worker) == "host:1"
    finally:
        await presence.close()


async def test_a_registration_refused_for_a_whole_lease_fails_the_start() -> None:
    registry = RefusingRegistry(refusals=10_000)
    presence = Presence(registry, RoomService(MemoryStore()), ttl=0.4, holder="host:1")
    started_at = asyncio.get_running_loop().time()
    with pytest.raises(RoomError) as refused:
        await presence.start()
    assert refused.value.code is ErrorCode.UNAVAILABLE and not presence.alive
    assert registry.tries >= 2 and asyncio.get_running_loop().time() - started_at < 2.0


async def test_a_registration_refused_for_another_reason_fails_at_once() -> None:
    registry = RefusingRegistry(refusals=1, code=ErrorCode.INTERNAL_ERROR)
    presence = Presence(registry, RoomService(MemoryStore()), ttl=TTL, holder="host:1")
    with pytest.raises(RoomError):
        await presence.start()
    assert registry.tries == 1 and not presence.alive
