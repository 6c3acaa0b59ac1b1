"""Redis faults against the real store and bus: restarts with and without the AOF, a
stopped server, a frozen one (SIGSTOP/SIGCONT). Real redis-server processes, no mocks;
waits are bounded and nothing asserts on how long anything took."""

from __future__ import annotations

import asyncio
import functools

import pytest

from core import Rules
from rooms import ErrorCode, Hub, Role, RoomError, RoomService
from rooms.backends import StoredRoom
from rooms.backends.redis.connect import RedisOptions
from rooms.backends.redis.store import RedisStore
from rooms.room import Join
from tests.chaos.redis_play import (
    PlayedRoom,
    check_nothing_lost_or_doubled,
    open_room,
    play,
    retrying,
)
from tests.support.backends import BackendMaker, event
from tests.support.redis_server import RedisServer
from tests.support.waiting import eventually

pytestmark = pytest.mark.redis

FAST = RedisOptions(timeout=1.0, socket_timeout=0.5, connect_timeout=0.5)
BOUND = 15.0  # a safety net so a hang fails the test instead of stalling the suite


def maker_for(server: RedisServer, makers: list[BackendMaker]) -> BackendMaker:
    maker = BackendMaker("redis", server.url)
    makers.append(maker)
    return maker


async def refused_unavailable(call: object) -> RoomError:
    with pytest.raises(RoomError) as caught:
        await asyncio.wait_for(call, BOUND)  # type: ignore[arg-type]
    assert caught.value.code is ErrorCode.UNAVAILABLE, caught.value
    assert "retry" in caught.value.message
    return caught.value


async def test_restart_with_aof_keeps_every_room(
    aof_server: RedisServer, makers: list[BackendMaker]
) -> None:
    pair = await maker_for(aof_server, makers).make(options=FAST)
    service = RoomService(pair.store)
    public = await service.create(Rules(), public=True)
    private = await service.create(Rules(rows=6, cols=7, k=4, gravity=True), public=False)
    await service.execute(public.room_id, Join("a", Role.PLAYER, "Ann"))
    await service.execute(private.room_id, Join("b", Role.SPECTATOR))
    before = [await pair.store.load(room.room_id) for room in (public, private)]
    epoch = pair.store.epoch  # type: ignore[attr-defined]

    aof_server.restart()

    # The same store object carries on: new connections, scripts reloaded after NOSCRIPT.
    after = [
        await retrying(functools.partial(pair.store.load, room.room_id))
        for room in (public, private)
    ]
    assert after == before
    assert await pair.store.events_since(public.room_id, 0) is not None
    assert [room.data for room in await pair.store.listed(10)] == [before[0].data]  # type: ignore[union-attr]
    joined = await service.execute(public.room_id, Join("c", Role.PLAYER, "Cy"))
    assert joined.room.version == 2 and joined.room.status.value == "playing"
    assert pair.store.epoch == epoch and pair.store.losses == 0  # type: ignore[attr-defined]


async def test_stopped_redis_gives_typed_errors_then_recovers(
    aof_server: RedisServer, makers: list[BackendMaker]
) -> None:
    pair = await maker_for(aof_server, makers).make(options=FAST, health=(0.2, 0.6))
    store, bus = pair.store, pair.bus
    await store.create("roomstop", "v0", listed=True)
    subscription = await bus.subscribe("roomstop")

    aof_server.kill()

    await refused_unavailable(store.ping())
    await refused_unavailable(store.create("roomnew1", "v0", listed=False))
    await refused_unavailable(store.load("roomstop"))
    await refused_unavailable(store.commit("roomstop", 0, "v1", event(1), listed=True))
    await refused_unavailable(store.events_since("roomstop", 0))
    await refused_unavailable(store.listed(10))
    await refused_unavailable(bus.publish("roomstop", event(1)))
    await refused_unavailable(bus.subscribe("roomnew1"))

    aof_server.start()

    # No reopen: the pool reconnects on the next call, the bus on its own.
    await retrying(store.ping)
    assert await store.load("roomstop") == StoredRoom(0, "v0")
    assert await store.create("roomnew1", "v0", listed=False)
    await retrying(lambda: bus.subscribe("roomnew1"))
    assert await store.commit("roomstop", 0, "v1", event(1), listed=True)
    # The old subscription was resubscribed: it gets the resync copy and/or the live event.
    assert await asyncio.wait_for(subscription.get(), BOUND) == event(1)
    await subscription.close()


async def test_restart_without_persistence_reports_rooms_lost(
    own_redis_server: RedisServer, makers: list[BackendMaker]
) -> None:
    maker = maker_for(own_redis_server, makers)
    pair = await maker.make(options=FAST)
    service = RoomService(pair.store)
    room = await service.create(Rules(), public=True)
    await service.execute(room.room_id, Join("a", Role.PLAYER, "Ann"))
    store = pair.store
    assert isinstance(store, RedisStore)
    epoch = store.epoch

    own_redis_server.restart()  # comes back empty

    with pytest.raises(RoomError) as caught:
        await retrying(lambda: service.load(room.room_id))
    assert caught.value.code is ErrorCode.ROOM_NOT_FOUND
    assert "was lost" in caught.value.message
    assert "restarted without its data" in caught.value.message
    assert store.losses == 1 and store.epoch != epoch
    # Still lost on every later try, and never recreated as an empty board.
    for command in (Join("b", Role.PLAYER, "Bo"), Join("c", Role.SPECTATOR)):
        with pytest.raises(RoomError, match="was lost"):
            await service.execute(room.room_id, command)
    assert await store.commit(room.room_id, 1, "x", event(2), listed=True) is False
    assert own_redis_server.client().keys(f"{maker.prefix}:{{{room.room_id}}}*") == []
    assert await store.listed(10) == []
    # The store goes on serving new rooms in the new epoch; readiness stays green.
    fresh = await service.create(Rules(), public=True)
    assert (await service.load(fresh.room_id)).version == 0
    await store.ping()
    assert store.losses == 1
    # A worker that never saw the room cannot tell lost from unknown: plain not found.
    other = (await maker.make(options=FAST)).store
    assert await other.load(room.room_id) is None


async def test_frozen_redis_loses_and_doubles_nothing(
    aof_server: RedisServer, makers: list[BackendMaker]
) -> None:
    """Two workers play three rooms each while Redis is frozen for two seconds (SIGSTOP,
    then SIGCONT): moves are retried with their move_id until acknowledged; every room
    ends with each move exactly once and every spectator saw every version once."""
    maker = maker_for(aof_server, makers)
    workers = [await maker.make(options=FAST, health=(0.2, 0.6)) for _ in range(2)]
    services = [RoomService(pair.store) for pair in workers]
    hubs = [Hub(pair.bus) for pair in workers]
    rooms = [await open_room(services[i % 2], hubs[i % 2]) for i in range(6)]
    # Each room is played through the OTHER worker than the one its spectator is on.
    games = [
        asyncio.create_task(play(services[(i + 1) % 2], played, pace=0.02))
        for i, played in enumerate(rooms)
    ]
    await _progress(rooms, 3 * len(rooms))
    aof_server.pause()
    await refused_unavailable(workers[0].store.load(rooms[0].room_id))  # bounded, typed
    await asyncio.sleep(1.5)  # the test: Redis stays frozen while the games go on trying
    aof_server.resume()
    await asyncio.wait_for(asyncio.gather(*games), 60.0)
    for i, played in enumerate(rooms):
        await asyncio.wait_for(_caught_up(services[i % 2], played), BOUND)
        await check_nothing_lost_or_doubled(services[i % 2], played)
    assert sum(played.retries for played in rooms) > 0  # the freeze was felt
    assert all(pair.bus.connections >= 2 for pair in workers)  # type: ignore[attr-defined]
    for hub in hubs:
        await hub.close()


async def _progress(rooms: list[PlayedRoom], moves: int) -> None:
    """Wait (bounded) until the games acknowledged ``moves`` moves in all."""
    await eventually(
        lambda: sum(len(played.acked) for played in rooms) >= moves,
        f"the games at {moves} acknowledged moves",
        interval=0.01,
    )


async def _caught_up(service: RoomService, played: PlayedRoom) -> None:
    version = (await service.load(played.room_id)).version
    await eventually(lambda: played.feed.version == version, f"the feed at version {version}")


@pytest.mark.slow
async def test_kill_9_with_aof_during_play_loses_no_acknowledged_move(
    aof_server: RedisServer, makers: list[BackendMaker]
) -> None:
    """Redis is killed with SIGKILL and restarted from its AOF three times while six rooms
    are played: every acknowledged move is still there, none twice."""
    maker = maker_for(aof_server, makers)
    workers = [await maker.make(options=FAST, health=(0.2, 0.6)) for _ in range(2)]
    services = [RoomService(pair.store) for pair in workers]
    hubs = [Hub(pair.bus) for pair in workers]
    rooms = [await open_room(services[i % 2], hubs[i % 2]) for i in range(6)]
    games = [
        asyncio.create_task(play(services[(i + 1) % 2], played, pace=0.02))
        for i, played in enumerate(rooms)
    ]
    for moves in (20, 60, 100):  # of the 150 moves to play
        await _progress(rooms, moves)
        await asyncio.to_thread(aof_server.restart)  # the games go on trying meanwhile
    await asyncio.wait_for(asyncio.gather(*games), 60.0)
    for i, played in enumerate(rooms):
        await asyncio.wait_for(_caught_up(services[i % 2], played), BOUND)
        await check_nothing_lost_or_doubled(services[i % 2], played)
    assert all(pair.store.losses == 0 for pair in workers)  # type: ignore[attr-defined]
    for hub in hubs:
        await hub.close()
