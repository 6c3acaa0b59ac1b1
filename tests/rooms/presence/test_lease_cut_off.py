"""A worker cut off from its store (a network partition) finds its lease lost on time: its
heartbeat does not wait out the store's timeout once per unrecorded departure, and the next
beat is due no later than the lease's end. Until it does, its connections stay open and hear
nothing (the bus is cut off too); once it does, it closes them and their clients resume on
any worker, getting what they missed (the soak's spectators that never saw a game's last
move, around a partition, were waiting for this)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from core import Rules
from rooms import LeaseLost, Presence, Role, RoomService
from rooms.room import Join
from tests.support.cut_off import Clock, CutOffRegistry, CutOffStore

TTL = 10.0


@pytest.fixture
async def cut_off(
    clock: Clock, store: CutOffStore, service: RoomService
) -> AsyncIterator[tuple[Presence, RoomService, CutOffStore, Clock]]:
    registry = CutOffRegistry(clock=clock)
    presence = Presence(registry, service, ttl=TTL, clock=clock, holder="test:1")
    await presence.start()  # its own beats wait TTL / 3 real seconds: the test beats
    yield presence, service, store, clock
    await presence.close(release=False)


async def departures_left_unrecorded(
    presence: Presence, service: RoomService, store: CutOffStore, count: int
) -> str:
    room_id = (await service.create(Rules(), public=False)).room_id
    conns = [presence.connection_id() for _ in range(count)]
    for conn in conns:
        await presence.enter(room_id, conn, lambda: None)
        await service.execute(
            room_id, Join(conn, Role.PLAYER if conn is conns[0] else Role.SPECTATOR)
        )
    store.down = True
    for conn in conns:  # each recorded alone (not gathered): one commit each
        assert not await presence.leave(room_id, conn)
    assert presence.pending() == count
    return room_id


async def test_a_beat_stops_retrying_departures_at_the_first_the_store_cannot_take(
    cut_off: tuple[Presence, RoomService, CutOffStore, Clock],
) -> None:
    presence, service, store, _ = cut_off
    room_id = await departures_left_unrecorded(presence, service, store, 5)
    store.attempts = 0
    await presence.beat()  # the lease renews (the registry answers), the store does not
    assert store.attempts == 1 and presence.pending() == 5
    store.down = False
    await presence.beat()
    assert presence.pending() == 0
    assert (await service.load(room_id)).spectators == []


async def test_a_beat_whose_renewal_failed_leaves_the_departures_for_later(
    cut_off: tuple[Presence, RoomService, CutOffStore, Clock],
) -> None:
    presence, service, store, _ = cut_off
    await departures_left_unrecorded(presence, service, store, 3)
    registry = presence.registry
    assert isinstance(registry, CutOffRegistry)
    registry.down = True
    store.attempts = 0
    await presence.beat()
    assert store.attempts == 0 and presence.pending() == 3


async def test_the_next_beat_is_due_no_later_than_the_lease_runs_out(
    cut_off: tuple[Presence, RoomService, CutOffStore, Clock],
) -> None:
    presence, service, _, clock = cut_off
    room_id = (await service.create(Rules(), public=False)).room_id
    closed: list[str] = []
    await presence.enter(room_id, presence.connection_id(), lambda: closed.append(room_id))
    assert presence._pause() == pytest.approx(TTL / 3)
    clock.now += TTL * 0.9  # renewals failed meanwhile: the lease ends in 1 s
    assert presence._pause() == pytest.approx(TTL * 0.1)
    clock.now += TTL
    assert presence._pause() == 0.0
    await presence.beat()  # that beat: the lease is lost, the connections told to resume
    assert closed == [room_id] and presence.losses == 1


async def test_a_join_is_refused_at_once_once_the_lease_ran_out_unrenewed(
    cut_off: tuple[Presence, RoomService, CutOffStore, Clock],
) -> None:
    """Before any beat noticed: the session asks ``check`` first, so the client is sent to
    resume elsewhere (1012) before this worker waits on its store or its bus."""
    presence, _, _, clock = cut_off
    conn = presence.connection_id()
    presence.check(conn)
    clock.now += TTL
    with pytest.raises(LeaseLost):
        presence.check(conn)
    assert presence.losses == 0  # the beat closes the connections and registers again
