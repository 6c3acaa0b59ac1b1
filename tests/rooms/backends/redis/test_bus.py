"""The Redis bus: one pub/sub connection per worker, reference-counted channels, and after
a reconnect a resubscription plus the "gap" signal that makes feeds repair from the store."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis

from core import MoveRequest, Rules
from rooms import Command, ErrorCode, Feed, Hub, Role, RoomError, RoomService
from rooms.backends.redis.bus import RedisBus
from rooms.backends.redis.connect import RedisOptions
from rooms.backends.redis.keys import KeyLayout, RoomKeys
from rooms.backends.redis.scripts import COMMIT, CommitArgs
from rooms.backends.redis.store import RedisStore
from rooms.protocol import decode_room, dumps, encode_room, event_version
from rooms.room import Join, PlayMove
from tests.support.backends import BackendMaker, Pair, event
from tests.support.counting import count_calls
from tests.support.redis_server import RedisServer, free_port
from tests.support.waiting import eventually

pytestmark = pytest.mark.redis


STUCK_BYTES = 64 * 1024 * 1024
"""More than a loopback connection's socket buffers take while the peer reads nothing."""


def numsub(sync: redis.Redis, layout: KeyLayout, room_id: str) -> int:
    return int(dict(sync.pubsub_numsub(layout.channel(room_id)))[layout.channel(room_id)])


def pubsub_clients(sync: redis.Redis) -> int:
    return len(sync.client_list(_type="pubsub"))


def plain_commit(
    keys: RoomKeys, expected: int, data: str, event: str, *, listed: bool = False
) -> CommitArgs:
    """The arguments of another worker's plain commit (not a swap)."""
    return CommitArgs(
        room=keys.room,
        log=keys.log,
        expected=expected,
        head=data,
        event=event,
        listed=b"1" if listed else b"0",
        finished=b"",
        log_size=b"256",
        idle_ttl=b"60000",
        finished_ttl=b"60000",
        channel=keys.channel,
        swap=b"",
        archive="",
        keep=b"",
    )


def blocking_commit(sync: redis.Redis, prefix: str, room_id: str, command: Command) -> int:
    """What another worker's service does (load, handle, commit script), synchronously:
    while it runs this test's event loop is blocked, so the bus cannot reconnect."""
    keys = KeyLayout(prefix).room(room_id)
    version, data = sync.hmget(keys.room, ["v", "d"])
    assert version is not None and isinstance(data, str)
    room = decode_room(data)
    handled = room.handle(command, time.time())
    assert handled.event is not None
    args = plain_commit(
        keys, int(version), encode_room(room), dumps(handled.event), listed=room.listed
    )
    reply = sync.eval(COMMIT, len(args.keys()), *args.keys(), *args.argv())
    assert reply[0] == 1
    return room.version


def bus_of(pair: Pair) -> RedisBus:
    assert isinstance(pair.bus, RedisBus)
    return pair.bus


async def test_one_connection_and_reference_counted_channels(
    maker: BackendMaker, redis_server: RedisServer
) -> None:
    sync = redis_server.client()
    before = pubsub_clients(sync)
    bus = bus_of(await maker.make())
    layout = KeyLayout(maker.prefix)
    first = await bus.subscribe("roomaaaa")
    second = await bus.subscribe("roomaaaa")
    others = [await bus.subscribe(f"room{i:04d}") for i in range(5)]
    assert pubsub_clients(sync) == before + 1
    assert numsub(sync, layout, "roomaaaa") == 1
    assert bus.subscribers("roomaaaa") == 2
    await first.close()
    assert numsub(sync, layout, "roomaaaa") == 1
    await second.close()
    await eventually(lambda: numsub(sync, layout, "roomaaaa") == 0, "UNSUBSCRIBE sent")
    assert bus.subscribers("roomaaaa") == 0
    for subscription in others:
        await subscription.close()


async def test_unsubscribe_racing_resubscribe_never_loses_the_channel(
    maker: BackendMaker,
) -> None:
    bus = bus_of(await maker.make())
    for i in range(50):
        gone = await bus.subscribe("roomrace")
        await gone.close()
        kept = await bus.subscribe("roomrace")
        await bus.publish("roomrace", event(i))
        assert await asyncio.wait_for(kept.get(), 5.0) == event(i)
        await kept.close()


async def test_a_full_subscription_buffer_drops_and_counts(redis_server: RedisServer) -> None:
    bus = RedisBus(redis_server.url, prefix="bufftest", buffer=2)
    await bus.open()
    try:
        subscription = await bus.subscribe("roombuff")
        for version in range(1, 6):
            await bus.publish("roombuff", event(version))
        await eventually(lambda: subscription.dropped == 3, "three messages dropped")
        assert [await subscription.get() for _ in range(2)] == [event(1), event(2)]
        await subscription.close()
    finally:
        await bus.close()


async def test_a_bus_without_redis_is_unavailable_quickly() -> None:
    options = RedisOptions(timeout=0.5, socket_timeout=0.2, connect_timeout=0.2)
    bus = RedisBus(f"redis://127.0.0.1:{free_port()}/0", options=options)
    with pytest.raises(RoomError) as caught:
        await bus.subscribe("roomnone")
    assert caught.value.code is ErrorCode.UNAVAILABLE
    with pytest.raises(RoomError) as caught:
        await bus.open()
    assert caught.value.code is ErrorCode.UNAVAILABLE and "retry" in caught.value.message


async def test_after_a_reconnect_the_latest_event_is_redelivered(
    maker: BackendMaker, redis_server: RedisServer
) -> None:
    pair = await maker.make()
    bus = bus_of(pair)
    subscription = await bus.subscribe("roomgaps")
    await pair.store.create("roomgaps", "v0", listed=False)
    assert await pair.store.commit("roomgaps", 0, "v1", event(1), listed=False)
    assert await asyncio.wait_for(subscription.get(), 5.0) == event(1)
    sync = redis_server.client()
    sync.client_kill_filter(_type="pubsub")
    keys = KeyLayout(maker.prefix).room("roomgaps")
    for version in (2, 3):  # published while the bus is cut off: lost to it
        args = plain_commit(keys, version - 1, f"v{version}", event(version))
        sync.eval(COMMIT, len(args.keys()), *args.keys(), *args.argv())
    # The bus reconnects, resubscribes and hands over the newest logged event: a gap.
    assert await asyncio.wait_for(subscription.get(), 5.0) == event(3)
    assert bus.connections == 2 and bus.resyncs == 1
    assert await pair.store.commit("roomgaps", 3, "v4", event(4), listed=False)
    assert await asyncio.wait_for(subscription.get(), 5.0) == event(4)
    await subscription.close()


@pytest.mark.parametrize("fastpath", [True, False], ids=["fastpath", "no-fastpath"])
async def test_feeds_repair_what_a_reconnect_lost(
    maker: BackendMaker, redis_server: RedisServer, fastpath: bool
) -> None:
    """A spectator's feed on this worker; another worker commits while this worker's
    pub/sub connection is down. The feed must end up with every event exactly once. Both
    ways: the fast path (the bus read through the wire, the store auto-pipelined) and
    ``--no-fastpath`` (plain redis-py for both)."""
    pair = await maker.make(options=RedisOptions(auto_pipeline=fastpath))
    assert (bus_of(pair)._wire is not None) is fastpath
    service, hub = RoomService(pair.store), Hub(pair.bus)
    room = await service.create(Rules(), public=False)
    sent: list[str] = []
    feed = Feed(room.room_id, service, sent.append)
    await hub.attach(room.room_id, feed)
    joined = await service.execute(room.room_id, Join("spectator", Role.SPECTATOR))
    feed.start(joined.room.version)
    await service.execute(room.room_id, Join("x", Role.PLAYER, "X"))
    await service.execute(room.room_id, Join("o", Role.PLAYER, "O"))
    await eventually(lambda: feed.version == 3, "live events arrive")
    sync = redis_server.client()
    sync.client_kill_filter(_type="pubsub")
    version = 3
    for mark, col, row in (("x", 0, 0), ("o", 1, 0), ("x", 0, 1), ("o", 1, 1)):
        command = PlayMove(mark, MoveRequest(col=col, row=row), version, f"{mark}{col}{row}")
        version = blocking_commit(sync, maker.prefix, room.room_id, command)
    # After the reconnect: one more live move, then everything must be there, once each.
    await eventually(lambda: bus_of(pair).connections == 2, "the bus reconnects")
    await service.execute(room.room_id, PlayMove("x", MoveRequest(col=0, row=2), version, "x02"))
    await eventually(lambda: feed.version == 8, "the feed catches up")
    assert [event_version(text) for text in sent] == [2, 3, 4, 5, 6, 7, 8]
    assert feed.repairs >= 1
    final = await service.load(room.room_id)
    assert final.game.is_over and final.version == 8
    feed.close()
    await hub.detach(room.room_id, feed)
    await hub.close()


async def test_closed_store_and_bus_can_be_reopened(redis_server: RedisServer) -> None:
    store = RedisStore(redis_server.url, prefix="reopen")
    bus = RedisBus(redis_server.url, prefix="reopen")
    for _ in range(2):
        await store.open()
        await bus.open()
        subscription = await bus.subscribe("roomopen")
        await bus.publish("roomopen", event(1))
        assert await asyncio.wait_for(subscription.get(), 5.0) == event(1)
        await subscription.close()
        await bus.close()
        await store.close()


async def test_subscribe_and_unsubscribe_are_written_without_a_task_of_their_own(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """redis-py writes through ``asyncio.wait_for`` (a task, a loop turn later) when the
    connection has a socket timeout: the bus's connection has none once connected, and
    ``_send`` bounds each write with the timeout the connection was made with."""
    options = RedisOptions(socket_timeout=0.7)
    bus = RedisBus(redis_server.url, prefix="notask", options=options)
    await bus.open()
    try:
        waits = count_calls(monkeypatch, asyncio, "wait_for")
        subscriptions = [await bus.subscribe(f"room{i:04d}") for i in range(5)]
        for subscription in subscriptions:
            await subscription.close()
        await bus.subscribe("roomlast")
        assert waits.calls == 0
        assert bus._conn is not None and bus._conn.socket_timeout is None
        assert bus._write_timeout == 0.7
    finally:
        await bus.close()


@pytest.mark.parametrize("fastpath", [True, False], ids=["fastpath", "no-fastpath"])
async def test_a_write_that_does_not_finish_in_time_drops_the_connection(
    redis_server: RedisServer, fastpath: bool
) -> None:
    """A write stuck past the timeout (a frozen Redis that stopped reading, and a command
    larger than the socket buffers hold) may have sent half a command: the connection is
    dropped, never written to again, and the reader reconnects and subscribes every room
    anew. Both ways: the fast path's wire and plain redis-py."""
    options = RedisOptions(socket_timeout=0.2, auto_pipeline=fastpath)
    bus = RedisBus(redis_server.url, prefix="stuck", options=options)
    await bus.open()
    try:
        kept = await bus.subscribe("roomkept")
        stuck, wire = bus._conn, bus._wire
        assert stuck is not None and (wire is not None) is fastpath
        redis_server.pause()
        try:
            started = time.monotonic()
            await bus._send("PING", "x" * STUCK_BYTES)  # PING <message>: allowed subscribed
            assert time.monotonic() - started < 2.0
            # dropped by the write's own bound, not later by the health watch
            assert wire.closed.done() if wire is not None else not stuck.is_connected
            await eventually(lambda: not stuck.is_connected, "the stuck connection dropped")
        finally:
            redis_server.resume()
        await eventually(lambda: bus.connections >= 2 and bus._conn is not None, "reconnected")
        assert bus._conn is not stuck
        await bus.publish("roomkept", event(1))
        assert await asyncio.wait_for(kept.get(), 5.0) == event(1)
        await kept.close()
    finally:
        await bus.close()
