"""The Redis store beyond the shared contract: one slot per room, TTLs, NOSCRIPT, the CAS
race between separate clients, the lobby's read repair, and typed errors for bad input."""

from __future__ import annotations

import asyncio
import time

import pytest
from redis.crc import key_slot

from rooms import ErrorCode, RoomError, UnsupportedBackend
from rooms.backends import StoredRoom
from rooms.backends.redis.connect import RedisOptions, split_url
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.redis.store import RedisStore
from tests.support.backends import BackendMaker, event
from tests.support.redis_server import RedisServer
from tests.support.waiting import eventually

pytestmark = pytest.mark.redis


async def redis_store(maker: BackendMaker, **kwargs: object) -> RedisStore:
    store = (await maker.make(**kwargs)).store  # type: ignore[arg-type]
    assert isinstance(store, RedisStore)
    return store


# -- layout -----------------------------------------------------------------------------


async def test_a_rooms_keys_and_channel_share_one_cluster_slot(
    maker: BackendMaker, redis_server: RedisServer
) -> None:
    store = await redis_store(maker)
    await store.create("slotroom", "v0", listed=True)
    await store.commit("slotroom", 0, "v1", event(1), listed=True)
    keys = store.layout.room("slotroom")
    assert {key_slot(k.encode()) for k in (keys.room, keys.log, keys.channel)} == {
        key_slot(b"slotroom")
    }
    names = set(redis_server.client().keys(f"{maker.prefix}:*"))
    assert names == {keys.room, keys.log, f"{maker.prefix}:lobby", f"{maker.prefix}:epoch"}
    assert store.layout.room_of_channel(keys.channel) == "slotroom"
    assert store.layout.room_of_channel("other:{slotroom}:ch") is None


def test_prefixes_and_urls_are_checked() -> None:
    for bad in ("", "a{b}", "a b", "x" * 65):
        with pytest.raises(UnsupportedBackend, match="prefix"):
            KeyLayout(bad)
    assert split_url("redis://h:1/2?prefix=abc&socket_timeout=3") == (
        "redis://h:1/2?socket_timeout=3",
        "abc",
    )
    assert split_url("rediss://h/0") == ("rediss://h/0", "ttt")
    with pytest.raises(UnsupportedBackend, match="not a Redis URL"):
        split_url("http://h/0")
    with pytest.raises(UnsupportedBackend, match="timeout"):
        RedisOptions(timeout=0)
    with pytest.raises(UnsupportedBackend, match="retries"):
        RedisOptions(retries=-1)


async def test_bad_input_gets_typed_errors(maker: BackendMaker) -> None:
    store = await redis_store(maker)
    with pytest.raises(RoomError) as caught:
        await store.create("no{good}", "v0", listed=False)
    assert caught.value.code is ErrorCode.BAD_MESSAGE
    await store.create("goodroom", "v0", listed=False)
    for version in (True, -1, "0", 1.0):
        with pytest.raises(RoomError) as caught:
            await store.commit("goodroom", version, "v", event(1), listed=False)  # type: ignore[arg-type]
        assert caught.value.code is ErrorCode.BAD_MESSAGE
    assert await store.commit("bad room", 0, "v", event(1), listed=False) is False
    assert await store.load("bad room") is None
    assert await store.events_since("goodroom", True) is None
    assert await store.events_since("bad}room", 0) is None
    assert await store.load("goodroom") == StoredRoom(0, "v0")


# -- expiry -----------------------------------------------------------------------------


async def test_ttls_idle_then_finished(maker: BackendMaker, redis_server: RedisServer) -> None:
    store = await redis_store(maker, room_ttl=3600.0, finished_ttl=600.0)
    keys = store.layout.room("ttlroom1")
    sync = redis_server.client()
    await store.create("ttlroom1", "v0", listed=True)
    assert 3_500_000 < sync.pttl(keys.room) <= 3_600_000
    await store.commit("ttlroom1", 0, "v1", event(1, status="playing"), listed=True)
    assert 3_500_000 < sync.pttl(keys.log) <= 3_600_000
    await store.commit("ttlroom1", 1, "v2", event(2, status="finished"), listed=False)
    assert 500_000 < sync.pttl(keys.room) <= 600_000
    # A later event without a status (a presence change) keeps the room finished.
    await store.commit("ttlroom1", 2, "v3", event(3), listed=False)
    assert 500_000 < sync.pttl(keys.room) <= 600_000
    assert 500_000 < sync.pttl(keys.log) <= 600_000
    assert sync.hget(keys.room, "f") == "1"


async def test_rooms_nobody_touches_expire_and_leave_the_lobby(maker: BackendMaker) -> None:
    store = await redis_store(maker, room_ttl=0.3, lobby_grace=0.0)
    await store.create("idleroom", "v0", listed=True)
    await store.create("liveroom", "v0", listed=True)

    async def idle_gone() -> bool:
        await store.commit(
            "liveroom",
            (await store.load("liveroom") or StoredRoom(0, "")).version,
            "v",
            event(1),
            listed=True,
        )  # keep this one touched
        return await store.load("idleroom") is None

    await eventually(idle_gone, "the idle room expired", interval=0.05)
    assert [room.data for room in await store.listed(10)] == ["v"]
    assert await store.client.zrange(store.layout.lobby, 0, -1) == ["liveroom"]


# -- scripts ----------------------------------------------------------------------------


async def test_noscript_after_script_flush_is_handled(
    maker: BackendMaker, redis_server: RedisServer
) -> None:
    store = await redis_store(maker)
    await store.create("flushed1", "v0", listed=False)
    sync = redis_server.client()
    for version in range(1, 4):
        sync.script_flush()
        assert await store.commit("flushed1", version - 1, "v", event(version), listed=False)
        assert await store.events_since("flushed1", 0) == [event(v) for v in range(1, version + 1)]
        assert await store.create(f"flushed{version + 1}", "v0", listed=False)
    assert await store.load("flushed1") == StoredRoom(3, "v")


async def test_cas_race_between_separate_clients_has_one_winner(maker: BackendMaker) -> None:
    """Eight workers (separate clients and connections) commit against the same version,
    300 times: exactly one wins each round, and the log holds exactly the winners."""
    stores = [await redis_store(maker, log_size=1000) for _ in range(8)]
    await stores[0].create("raceroom", "v0", listed=True)
    winners: list[int] = []
    for version in range(300):
        results = await asyncio.gather(
            *(
                store.commit("raceroom", version, f"w{i}", event(version + 1, by=i), listed=True)
                for i, store in enumerate(stores)
            )
        )
        assert results.count(True) == 1, f"round {version}: {results}"
        winners.append(results.index(True))
    assert await stores[3].load("raceroom") == StoredRoom(300, f"w{winners[-1]}")
    assert await stores[5].events_since("raceroom", 0) == [
        event(v + 1, by=w) for v, w in enumerate(winners)
    ]


# -- the lobby --------------------------------------------------------------------------


async def test_lobby_read_repair_drops_zombies_and_spares_young_entries(
    maker: BackendMaker, redis_server: RedisServer
) -> None:
    store = await redis_store(maker, lobby_grace=60.0)
    lobby = store.layout.lobby
    sync = redis_server.client()
    now = time.time()
    await store.create("listed01", "listed01", listed=True)
    await store.create("private1", "private1", listed=False)
    # What crashes and expiry leave behind: entries for a room that is gone, for a
    # private room, and (younger than the grace) for a room still being created.
    sync.zadd(lobby, {"goneroom": now - 3600, "private1": now - 10, "comingup": now})
    assert [room.data for room in await store.listed(10)] == ["listed01"]
    assert set(sync.zrange(lobby, 0, -1)) == {"listed01", "comingup"}
    await store.create("comingup", "comingup", listed=True)  # NX: keeps its entry
    assert [room.data for room in await store.listed(10)] == ["listed01", "comingup"]
    # A finished game leaves; a commit that lost its race changes nothing.
    assert await store.commit("comingup", 0, "over", event(1, status="finished"), listed=False)
    assert await store.commit("listed01", 5, "x", event(6), listed=False) is False
    assert [room.data for room in await store.listed(10)] == ["listed01"]
    assert sync.zrange(lobby, 0, -1) == ["listed01"]


async def test_lobby_pages_past_dead_entries_and_sweeps_the_oldest(
    maker: BackendMaker, redis_server: RedisServer
) -> None:
    store = await redis_store(maker, lobby_grace=0.0)
    lobby = store.layout.lobby
    sync = redis_server.client()
    now = time.time()
    sync.zadd(lobby, {f"old{i:05d}": now - 7200 - i for i in range(10)})  # abandoned
    for i in range(50):
        await store.create(f"room{i:04d}", f"room{i:04d}", listed=True)
    for i in range(20, 50):  # the 30 newest rooms expired: their entries are dead
        sync.delete(store.layout.room(f"room{i:04d}").room)
    listed = await store.listed(5)
    assert [room.data for room in listed] == [f"room{i:04d}" for i in (19, 18, 17, 16, 15)]
    remaining: set[str] = set(sync.zrange(lobby, 0, -1))  # type: ignore[arg-type]  # decoded
    assert not any(f"room{i:04d}" in remaining for i in range(20, 50))
    assert sum(name.startswith("old") for name in remaining) <= 2  # the sweep took 8
    assert {f"room{i:04d}" for i in range(20)} <= remaining


async def test_a_full_redis_is_unavailable_not_a_crash(
    maker: BackendMaker, redis_server: RedisServer
) -> None:
    store = await redis_store(maker)
    await store.create("fullroom", "v0", listed=False)
    sync = redis_server.client()
    used = int(sync.info("memory")["used_memory"])
    sync.config_set("maxmemory-policy", "noeviction")
    sync.config_set("maxmemory", used + 200_000)
    try:
        with pytest.raises(RoomError) as caught:
            for i in range(100):
                await store.create(f"big{i:05d}", "x" * 100_000, listed=False)
        assert caught.value.code is ErrorCode.UNAVAILABLE
        assert "retry" in caught.value.message
    finally:
        sync.config_set("maxmemory", 0)
    assert await store.commit("fullroom", 0, "v1", event(1), listed=False)
