"""The Redis store and bus on a real three-master Redis Cluster: URLs, rooms on every shard,
racing workers, a slot migrated under a live subscription, and masters restarted with and
without their data. Real redis-server processes on loopback, no mocks, bounded waits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from redis.crc import key_slot

from core import MoveRequest, Rules
from rooms import ErrorCode, Role, RoomError, RoomService, UnsupportedBackend, open_backend
from rooms.backends.bus import Subscription
from rooms.backends.redis.bus import RedisSubscription
from rooms.backends.redis.cluster.bus import RedisClusterBus, _ShardLink
from rooms.backends.redis.cluster.pair import parse_cluster_url
from rooms.backends.redis.cluster.store import RedisClusterStore, slot_tags
from rooms.room import Join, PlayMove
from tests.support.backends import BackendMaker, Pair, event
from tests.support.redis_cluster import ClusterNodeServer, LocalCluster
from tests.support.waiting import retrying

pytestmark = pytest.mark.redis

BOUND = 20.0  # a safety net against hangs, never a measurement


def maker_on(cluster: LocalCluster, makers: list[BackendMaker]) -> BackendMaker:
    maker = BackendMaker("cluster", cluster.url)
    makers.append(maker)
    return maker


def rooms_on(cluster: LocalCluster, node: ClusterNodeServer, count: int, stem: str) -> list[str]:
    """``count`` room ids whose slots are on ``node`` (found by trying names in order)."""
    found = [
        room
        for room in (f"{stem}{n:04d}" for n in range(2000))
        if cluster.node_for_key(f"{{{room}}}") is node
    ]
    assert len(found) >= count
    return found[:count]


def unavailable(exc: Exception) -> bool:
    """A cluster still recovering refuses with ``unavailable``; anything else is an answer."""
    return isinstance(exc, RoomError) and exc.code is ErrorCode.UNAVAILABLE


def cluster_parts(pair: Pair) -> tuple[RedisClusterStore, RedisClusterBus]:
    assert isinstance(pair.store, RedisClusterStore) and isinstance(pair.bus, RedisClusterBus)
    return pair.store, pair.bus


# -- URLs -------------------------------------------------------------------------------


def test_cluster_urls_name_seeds_prefix_and_client_options() -> None:
    parsed = parse_cluster_url("redis+cluster://:s3cret@10.0.0.1:7000,10.0.0.2:7001/?prefix=p1")
    assert parsed.seeds == (("10.0.0.1", 7000), ("10.0.0.2", 7001))
    assert parsed.prefix == "p1" and parsed.kwargs["password"] == "s3cret"
    assert "ssl" not in parsed.kwargs
    secure = parse_cluster_url("rediss+cluster://user:pw@h:6380?socket_keepalive=yes")
    assert secure.seeds == (("h", 6380),) and secure.prefix == "ttt"
    assert secure.kwargs["ssl"] is True and secure.kwargs["socket_keepalive"] is True
    assert secure.kwargs["username"] == "user"
    for bad, match in (
        ("redis+cluster://h:7000/3", "only database 0"),
        ("redis+cluster://h", "host:port"),
        ("redis+cluster://h:99999", "host:port"),
        ("redis+cluster://", "at least one"),
        ("redis://h:7000", "not a Redis Cluster URL"),
    ):
        with pytest.raises(UnsupportedBackend, match=match):
            parse_cluster_url(bad)


def test_open_backend_chooses_the_cluster_by_scheme() -> None:
    backend = open_backend("redis+cluster://127.0.0.1:7000?prefix=abc")
    assert isinstance(backend.store, RedisClusterStore)
    assert isinstance(backend.bus, RedisClusterBus)
    assert backend.shared and backend.store.name == "redis-cluster"
    assert backend.store.layout.prefix == "abc" and backend.bus.layout.prefix == "abc"
    with pytest.raises(UnsupportedBackend, match=r"redis\+cluster://"):
        open_backend("cluster://127.0.0.1:7000")


def test_every_slot_has_an_epoch_tag_hashing_to_it() -> None:
    tags = slot_tags()
    assert len(tags) == 16384 and len(set(tags)) == 16384
    assert all(key_slot(f"ttt:{{{tag}}}:epoch".encode()) == slot for slot, tag in enumerate(tags))


# -- rooms on every shard ---------------------------------------------------------------


async def test_rooms_live_on_their_slots_master_with_one_link_per_master(
    redis_cluster: LocalCluster, makers: list[BackendMaker]
) -> None:
    maker = maker_on(redis_cluster, makers)
    store, bus = cluster_parts(await maker.make())
    rooms = {node.port: rooms_on(redis_cluster, node, 2, "shard") for node in redis_cluster.nodes}
    subscriptions = {}
    for room in (room for pair in rooms.values() for room in pair):
        subscriptions[room] = await bus.subscribe(room)
        assert await store.create(room, "v0", listed=True)
        assert await store.commit(room, 0, "v1", event(1), listed=True)
    for subscription in subscriptions.values():
        assert await asyncio.wait_for(subscription.get(), BOUND) == event(1)
    # Each room's record, log and epoch sit on the master of its slot, and this worker
    # listens on exactly one pub/sub connection per master, carrying that master's rooms.
    for node in redis_cluster.nodes:
        client = node.client()
        try:
            for room in rooms[node.port]:
                keys = store.layout.room(room)
                epoch = store._epoch_key(room)
                assert client.exists(keys.room, keys.log, epoch) == 3
                assert key_slot(epoch.encode()) == key_slot(room.encode())
            names = [c["name"] for c in client.client_list()]
        finally:
            client.close()
        assert names.count(f"{maker.prefix}-bus") == 1
        assert sorted(bus.shards()[f"127.0.0.1:{node.port}"]) == sorted(rooms[node.port])
    listed = sorted(stored.data for stored in await store.listed(10))
    assert listed == ["v1"] * 6
    for subscription in subscriptions.values():
        await subscription.close()
    assert all(held == [] for held in bus.shards().values())


async def test_racing_workers_on_every_shard_land_each_move_once(
    redis_cluster: LocalCluster, makers: list[BackendMaker]
) -> None:
    """Six workers (own clients each) race to play the same move on rooms of every master,
    30 times per room: per version exactly one wins; the others are told it is stale."""
    maker = maker_on(redis_cluster, makers)
    services = [RoomService((await maker.make()).store) for _ in range(6)]
    rooms = []
    for _ in range(3):
        room = await services[0].create(Rules(rows=9, cols=9, k=9), public=False)
        await services[0].execute(room.room_id, Join("x", Role.PLAYER, "X"))
        await services[0].execute(room.room_id, Join("o", Role.PLAYER, "O"))
        rooms.append(room.room_id)

    async def race(room_id: str) -> int:
        won = 0
        for turn in range(30):
            version = (await services[0].load(room_id)).version
            conn = ("x", "o")[turn % 2]
            cell = MoveRequest(row=turn // 9, col=turn % 9)
            outcomes = await asyncio.gather(
                *(
                    service.execute(room_id, PlayMove(conn, cell, version, f"w{i}-{turn}"))
                    for i, service in enumerate(services)
                ),
                return_exceptions=True,
            )
            landed = [o for o in outcomes if not isinstance(o, BaseException)]
            refused = [o for o in outcomes if isinstance(o, RoomError)]
            assert len(landed) == 1 and len(refused) == len(services) - 1, outcomes
            assert {error.code for error in refused} == {ErrorCode.STALE_VERSION}
            won += 1
        return won

    assert await asyncio.gather(*(race(room_id) for room_id in rooms)) == [30, 30, 30]
    for room_id in rooms:
        room = await services[3].load(room_id)
        assert room.game.ply == 30
        assert await services[4].events_since(room_id, room.version - 30) is not None


# -- topology changes -------------------------------------------------------------------


async def test_a_slot_migrated_under_a_subscription_keeps_room_and_events(
    start_redis_cluster: Callable[..., LocalCluster], makers: list[BackendMaker]
) -> None:
    own_cluster = start_redis_cluster()  # reshaped: this test's own
    maker = maker_on(own_cluster, makers)
    store, bus = cluster_parts(await maker.make())
    other_store = cluster_parts(await maker.make())[0]  # another worker
    source, target = own_cluster.nodes[0], own_cluster.nodes[1]
    room = rooms_on(own_cluster, source, 1, "moving")[0]
    subscription = await bus.subscribe(room)
    await store.create(room, "v0", listed=False)
    assert await store.commit(room, 0, "v1", event(1), listed=False)
    assert await asyncio.wait_for(subscription.get(), BOUND) == event(1)
    epoch = store.epoch_of(room)

    moved = own_cluster.move_slot(key_slot(room.encode()), target)

    assert moved == 3  # the room, its log and its slot's epoch
    # Redis told the link its slot left; the bus followed it to the new master. Commits
    # meanwhile are delivered live or by the re-delivery of the latest logged event.
    assert await retrying(
        lambda: other_store.commit(room, 1, "v2", event(2), listed=False),
        "a commit after the slot moved",
        transient=unavailable,
        timeout=BOUND,
    )
    received = []
    while event(2) not in received:
        received.append(await asyncio.wait_for(subscription.get(), BOUND))
    assert set(received) <= {event(1), event(2)}
    assert bus.shards()[f"127.0.0.1:{target.port}"] == [room] and bus.reroutes == 1
    assert await store.commit(room, 2, "v3", event(3), listed=False)
    assert await asyncio.wait_for(subscription.get(), BOUND) == event(3)
    assert (await store.load(room)).version == 3  # type: ignore[union-attr]
    assert store.epoch_of(room) == epoch and store.losses == 0
    await subscription.close()


async def test_a_listener_that_subscribes_mid_move_costs_the_moved_ones_nothing(
    start_redis_cluster: Callable[..., LocalCluster],
    makers: list[BackendMaker],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the bus moves a room to its new master's link, no link holds it: a listener
    subscribing then goes to the new master itself, and the moved subscriptions join it
    there. What was published between the two (the game's last move, perhaps) must still
    reach them: their own confirmation, which would redeliver it, never comes."""
    own_cluster = start_redis_cluster()  # reshaped: this test's own
    maker = maker_on(own_cluster, makers)
    store, bus = cluster_parts(await maker.make())
    other_store = cluster_parts(await maker.make())[0]  # another worker
    source, target = own_cluster.nodes[0], own_cluster.nodes[1]
    room = rooms_on(own_cluster, source, 1, "midmove")[0]
    moved_one = await bus.subscribe(room)
    await store.create(room, "v0", listed=False)
    assert await store.commit(room, 0, "v1", event(1), listed=False)
    assert await asyncio.wait_for(moved_one.get(), BOUND) == event(1)
    latecomers: list[Subscription] = []
    evict = _ShardLink.evict

    async def evict_with_a_commit_and_a_subscribe_meanwhile(
        link: _ShardLink, room_id: str
    ) -> set[RedisSubscription]:
        held = await evict(link, room_id)
        # between the links: another worker commits, then a listener here subscribes
        assert await retrying(
            lambda: other_store.commit(room, 1, "v2", event(2), listed=False),
            "a commit while the room is between links",
            transient=unavailable,
            timeout=BOUND,
        )
        latecomers.append(await bus.subscribe(room))
        return held

    monkeypatch.setattr(_ShardLink, "evict", evict_with_a_commit_and_a_subscribe_meanwhile)

    own_cluster.move_slot(key_slot(room.encode()), target)

    received = []
    while event(2) not in received:  # redelivered to the moved subscription
        received.append(await asyncio.wait_for(moved_one.get(), BOUND))
    assert set(received) <= {event(1), event(2)}
    assert bus.shards()[f"127.0.0.1:{target.port}"] == [room] and bus.reroutes == 1
    assert await store.commit(room, 2, "v3", event(3), listed=False)
    for subscription in (moved_one, *latecomers):  # both live on the new master's link
        while (await asyncio.wait_for(subscription.get(), BOUND)) != event(3):
            pass
        await subscription.close()


async def test_a_master_restarted_without_its_data_loses_only_its_rooms(
    start_redis_cluster: Callable[..., LocalCluster], makers: list[BackendMaker]
) -> None:
    own_cluster = start_redis_cluster()  # restarted, without persistence: this test's own
    maker = maker_on(own_cluster, makers)
    store, _ = cluster_parts(await maker.make())
    victim = own_cluster.nodes[2]
    lost = rooms_on(own_cluster, victim, 2, "lost")
    kept = [
        room for node in own_cluster.nodes[:2] for room in rooms_on(own_cluster, node, 1, "kept")
    ]
    for room in lost + kept:
        await store.create(room, "v0", listed=False)

    victim.restart()  # kill -9; back on its nodes.conf (its slots) with no data
    own_cluster.wait_ok()

    for room in lost:
        with pytest.raises(RoomError, match="was lost") as caught:
            await retrying(
                lambda room=room: store.load(room),  # type: ignore[misc]
                f"an answer for {room}",
                transient=unavailable,
                timeout=BOUND,
            )
        assert caught.value.code is ErrorCode.ROOM_NOT_FOUND
    assert store.losses == len({key_slot(room.encode()) for room in lost})
    for room in kept:
        assert (await store.load(room)).data == "v0"  # type: ignore[union-attr]
    assert await store.commit(lost[0], 0, "v1", event(1), listed=False) is False
    # A worker that never saw the lost rooms cannot tell: plain "no such room".
    fresh = cluster_parts(await maker.make())[0]
    assert await fresh.load(lost[0]) is None
    await store.ping()


async def test_a_master_restarted_from_its_aof_keeps_rooms_and_events_flow(
    start_redis_cluster: Callable[..., LocalCluster], makers: list[BackendMaker]
) -> None:
    aof_cluster = start_redis_cluster(appendonly=True)
    maker = maker_on(aof_cluster, makers)
    store, bus = cluster_parts(await maker.make(health=(0.2, 0.6)))
    victim = aof_cluster.nodes[1]
    room = rooms_on(aof_cluster, victim, 1, "aof")[0]
    elsewhere = rooms_on(aof_cluster, aof_cluster.nodes[0], 1, "aof")[0]
    subscription = await bus.subscribe(room)
    for name in (room, elsewhere):
        await store.create(name, "v0", listed=True)
    assert await store.commit(room, 0, "v1", event(1), listed=True)
    assert await asyncio.wait_for(subscription.get(), BOUND) == event(1)

    victim.kill()
    with pytest.raises(RoomError) as caught:
        await asyncio.wait_for(store.commit(room, 1, "v2", event(2), listed=True), BOUND)
    assert caught.value.code is ErrorCode.UNAVAILABLE and "retry" in caught.value.message
    victim.start()
    aof_cluster.wait_ok()

    assert await retrying(
        lambda: store.commit(room, 1, "v2", event(2), listed=True),
        "a commit after the master restarted",
        transient=unavailable,
        timeout=BOUND,
    )
    received = []
    while event(2) not in received:  # the link reconnected, live or re-delivered
        received.append(await asyncio.wait_for(subscription.get(), BOUND))
    assert set(received) <= {event(1), event(2)}
    assert await store.events_since(room, 0) == [event(1), event(2)]
    assert (await store.load(elsewhere)).version == 0  # type: ignore[union-attr]
    assert sorted(s.version for s in await store.listed(10)) == [0, 2]
    assert store.losses == 0 and bus.connections >= 2
    await subscription.close()
