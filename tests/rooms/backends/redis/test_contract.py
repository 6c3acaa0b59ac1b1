"""The Store and Bus contract (rooms/backends/store.py, rooms/backends/bus.py), run against
every backend.

Each test gets a ``BackendMaker`` for ``memory`` and for ``redis`` (a private redis-server
shared by this module, a fresh key prefix per test), so both backends must behave alike.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from rooms.backends import StoredRoom, Subscription
from tests.support.backends import BackendMaker, event

pytestmark = pytest.mark.redis


@pytest.fixture(params=["memory", "redis"])
async def backends(request: pytest.FixtureRequest) -> AsyncIterator[BackendMaker]:
    url = None
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
    maker = BackendMaker(request.param, url)
    try:
        yield maker
    finally:
        await maker.close()


async def next_message(subscription: Subscription) -> str:
    return await asyncio.wait_for(subscription.get(), 5.0)


async def nothing_more(subscription: Subscription) -> None:
    """No message waits (a published message arrives long before 0.2s on a local Redis;
    this only guards against extra deliveries, so a slow machine cannot make it fail)."""
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(subscription.get(), 0.2)


# -- store ------------------------------------------------------------------------------


async def test_create_then_load_and_ids_are_never_reused(backends: BackendMaker) -> None:
    store = (await backends.make()).store
    assert await store.create("room0001", "first", listed=False)
    assert await store.create("room0001", "second", listed=True) is False
    assert await store.load("room0001") == StoredRoom(0, "first")
    assert await store.load("nosuchroom") is None


async def test_text_round_trips_exactly(backends: BackendMaker) -> None:
    store = (await backends.make()).store
    data = '{"name":"Zoë ✓ 🎲","quote":"\\"x\\"","nul":"\\u0000"}' + "x" * 5000
    assert await store.create("room0002", data, listed=False)
    assert await store.commit("room0002", 0, data + "!", event(1, note="é"), listed=False)
    assert await store.load("room0002") == StoredRoom(1, data + "!")
    assert await store.events_since("room0002", 0) == [event(1, note="é")]


async def test_commit_is_compare_and_set(backends: BackendMaker) -> None:
    store = (await backends.make()).store
    await store.create("room0003", "v0", listed=False)
    assert await store.commit("room0003", 0, "v1", event(1), listed=False)
    assert await store.commit("room0003", 0, "v1-again", event(1), listed=False) is False
    assert await store.commit("room0003", 5, "v6", event(6), listed=False) is False
    assert await store.load("room0003") == StoredRoom(1, "v1")
    assert await store.commit("room0003", 1, "v2", event(2), listed=False)
    assert await store.load("room0003") == StoredRoom(2, "v2")
    assert await store.events_since("room0003", 0) == [event(1), event(2)]


async def test_commit_to_a_missing_room_writes_nothing(backends: BackendMaker) -> None:
    store = (await backends.make()).store
    assert await store.commit("room0004", 0, "v1", event(1), listed=True) is False
    assert await store.load("room0004") is None
    assert await store.listed(10) == []


async def test_events_since(backends: BackendMaker) -> None:
    store = (await backends.make()).store
    await store.create("room0005", "v0", listed=False)
    assert await store.events_since("room0005", 0) == []
    for version in (1, 2, 3):
        assert await store.commit(
            "room0005", version - 1, f"v{version}", event(version), listed=False
        )
    assert await store.events_since("room0005", 0) == [event(1), event(2), event(3)]
    assert await store.events_since("room0005", 2) == [event(3)]
    assert await store.events_since("room0005", 3) == []
    assert await store.events_since("room0005", 4) is None  # ahead of the room
    assert await store.events_since("room0005", -1) is None
    assert await store.events_since("nosuchroom", 0) is None


async def test_event_log_is_bounded(backends: BackendMaker) -> None:
    store = (await backends.make(log_size=4)).store
    await store.create("room0006", "v0", listed=False)
    for version in range(1, 11):
        assert await store.commit("room0006", version - 1, "v", event(version), listed=False)
    assert await store.events_since("room0006", 6) == [event(v) for v in (7, 8, 9, 10)]
    assert await store.events_since("room0006", 5) is None  # no longer reaches back
    assert await store.events_since("room0006", 0) is None
    assert await store.events_since("room0006", 10) == []


async def test_listing_newest_first_public_and_unfinished_only(backends: BackendMaker) -> None:
    store = (await backends.make()).store
    for room_id in ("pub00001", "pub00002", "pub00003"):
        assert await store.create(room_id, room_id, listed=True)
    assert await store.create("private1", "private1", listed=False)
    assert [r.data for r in await store.listed(10)] == ["pub00003", "pub00002", "pub00001"]
    assert [r.data for r in await store.listed(2)] == ["pub00003", "pub00002"]
    # A game that finishes leaves the list; an ordinary change keeps the room listed.
    assert await store.commit("pub00002", 0, "pub00002 over", event(1), listed=False)
    assert await store.commit("pub00001", 0, "pub00001 moved", event(1), listed=True)
    assert await store.listed(10) == [StoredRoom(0, "pub00003"), StoredRoom(1, "pub00001 moved")]


async def test_ping(backends: BackendMaker) -> None:
    await (await backends.make()).store.ping()


# -- bus --------------------------------------------------------------------------------


async def test_commits_reach_subscribers_in_version_order(backends: BackendMaker) -> None:
    pair = await backends.make()
    subscription = await pair.bus.subscribe("room0010")
    await pair.store.create("room0010", "v0", listed=False)
    for version in range(1, 21):
        assert await pair.store.commit("room0010", version - 1, "v", event(version), listed=False)
    assert [await next_message(subscription) for _ in range(20)] == [event(v) for v in range(1, 21)]
    await nothing_more(subscription)
    await subscription.close()


async def test_refused_commits_publish_nothing(backends: BackendMaker) -> None:
    pair = await backends.make()
    subscription = await pair.bus.subscribe("room0011")
    await pair.store.create("room0011", "v0", listed=False)
    assert await pair.store.commit("room0011", 3, "v", event(4), listed=False) is False
    assert await pair.store.commit("room0011", 0, "v", event(1), listed=False)
    assert await next_message(subscription) == event(1)
    await nothing_more(subscription)
    await subscription.close()


async def test_subscriptions_fan_out_and_close_independently(backends: BackendMaker) -> None:
    pair = await backends.make()
    first = await pair.bus.subscribe("room0012")
    second = await pair.bus.subscribe("room0012")
    other = await pair.bus.subscribe("room0013")
    await pair.bus.publish("room0012", event(1))
    assert await next_message(first) == event(1)
    assert await next_message(second) == event(1)
    await first.close()
    await first.close()  # closing twice is harmless
    await pair.bus.publish("room0012", event(2))
    assert await next_message(second) == event(2)
    await nothing_more(other)
    await second.close()
    third = await pair.bus.subscribe("room0012")  # the channel comes back after the last close
    await pair.bus.publish("room0012", event(3))
    assert await next_message(third) == event(3)
    await third.close()
    await other.close()


async def test_workers_see_each_others_commits(backends: BackendMaker) -> None:
    """Two workers: a commit through one reaches the other's subscribers (Redis and a
    Redis Cluster share; the memory backend is one process, so there one pair plays both
    parts)."""
    one = await backends.make()
    two = await backends.make() if backends.kind != "memory" else one
    subscription = await two.bus.subscribe("room0014")
    await one.store.create("room0014", "v0", listed=True)
    assert await two.store.load("room0014") == StoredRoom(0, "v0")
    assert await one.store.commit("room0014", 0, "v1", event(1), listed=True)
    assert await next_message(subscription) == event(1)
    assert await two.store.commit("room0014", 0, "lost", event(1), listed=True) is False
    assert await two.store.listed(5) == [StoredRoom(1, "v1")]
    await subscription.close()
