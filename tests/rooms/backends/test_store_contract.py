"""The Store and Bus contract: what every backend (memory now, Redis later) must do.

Written against the protocols only, through the ``backend`` fixture (conftest.py), so the
Redis issue runs the same suite by adding its URL there.
"""

from __future__ import annotations

import asyncio
import secrets

from rooms import Backend
from rooms.backends import Subscription
from tests.support.backends import CONTRACT_LOG_SIZE


def rid() -> str:
    return "t" + secrets.token_hex(8)


def event(version: int) -> str:
    return f'{{"type":"spectators","version":{version},"count":{version}}}'


async def next_message(subscription: Subscription) -> str:
    return await asyncio.wait_for(subscription.get(), 10)


async def test_create_load_and_refuse_a_taken_id(backend: Backend) -> None:
    room = rid()
    data = '{"name":"é ✓ \\u0000"}'
    assert await backend.store.create(room, data, listed=False)
    stored = await backend.store.load(room)
    assert stored is not None and (stored.version, stored.data) == (0, data)
    assert not await backend.store.create(room, "other", listed=False)
    assert (await backend.store.load(room)).data == data  # type: ignore[union-attr]
    assert await backend.store.load(rid()) is None


async def test_commit_is_compare_and_set(backend: Backend) -> None:
    room = rid()
    await backend.store.create(room, "v0", listed=False)
    assert await backend.store.commit(room, 0, "v1", event(1), listed=False)
    assert not await backend.store.commit(room, 0, "lost", event(1), listed=False)
    assert not await backend.store.commit(room, 5, "lost", event(6), listed=False)
    stored = await backend.store.load(room)
    assert stored is not None and (stored.version, stored.data) == (1, "v1")
    assert not await backend.store.commit(rid(), 0, "x", event(1), listed=False)


async def test_racing_commits_exactly_one_wins(backend: Backend) -> None:
    room = rid()
    await backend.store.create(room, "v0", listed=False)
    results = await asyncio.gather(
        *(backend.store.commit(room, 0, f"by {i}", event(1), listed=False) for i in range(20))
    )
    assert results.count(True) == 1
    stored = await backend.store.load(room)
    assert stored is not None and stored.version == 1
    assert stored.data == f"by {results.index(True)}"
    assert await backend.store.events_since(room, 0) == [event(1)]


async def test_event_log_is_bounded_and_answers_from_a_version(backend: Backend) -> None:
    room = rid()
    await backend.store.create(room, "v0", listed=False)
    assert await backend.store.events_since(room, 0) == []
    total = CONTRACT_LOG_SIZE + 3
    for version in range(1, total + 1):
        assert await backend.store.commit(
            room, version - 1, f"v{version}", event(version), listed=False
        )
    assert await backend.store.events_since(room, total) == []
    assert await backend.store.events_since(room, total - 2) == [event(total - 1), event(total)]
    oldest = total - CONTRACT_LOG_SIZE  # the log holds versions oldest+1 .. total
    assert await backend.store.events_since(room, oldest) == [
        event(v) for v in range(oldest + 1, total + 1)
    ]
    assert await backend.store.events_since(room, oldest - 1) is None
    assert await backend.store.events_since(room, total + 1) is None
    assert await backend.store.events_since(rid(), 0) is None


async def test_listing_follows_the_listed_flag_newest_first(backend: Backend) -> None:
    first, second, hidden = rid(), rid(), rid()
    await backend.store.create(first, "first", listed=True)
    await backend.store.create(second, "second", listed=True)
    await backend.store.create(hidden, "hidden", listed=False)
    datas = [stored.data for stored in await backend.store.listed(100)]
    assert datas.index("second") < datas.index("first") and "hidden" not in datas
    assert len(await backend.store.listed(1)) == 1
    await backend.store.commit(first, 0, "first done", event(1), listed=False)
    datas = [stored.data for stored in await backend.store.listed(100)]
    assert "first done" not in datas and "first" not in datas and "second" in datas
    await backend.store.commit(hidden, 0, "hidden now public", event(1), listed=True)
    assert "hidden now public" in [s.data for s in await backend.store.listed(100)]


async def test_commit_publishes_its_event_in_order(backend: Backend) -> None:
    room = rid()
    await backend.store.create(room, "v0", listed=False)
    subscription = await backend.bus.subscribe(room)
    other = await backend.bus.subscribe(rid())
    try:
        for version in (1, 2, 3):
            await backend.store.commit(
                room, version - 1, f"v{version}", event(version), listed=False
            )
        assert [await next_message(subscription) for _ in range(3)] == [
            event(1),
            event(2),
            event(3),
        ]
        await backend.bus.publish(room, "a hint")
        assert await next_message(subscription) == "a hint"
        await backend.bus.publish(other_room := rid(), "elsewhere")
        assert other_room != room
    finally:
        await subscription.close()
        await other.close()


async def test_every_subscriber_gets_the_message_and_a_closed_one_stops(backend: Backend) -> None:
    room = rid()
    one, two = await backend.bus.subscribe(room), await backend.bus.subscribe(room)
    await backend.bus.publish(room, "hello")
    assert await next_message(one) == "hello" and await next_message(two) == "hello"
    await one.close()
    await backend.bus.publish(room, "again")
    assert await next_message(two) == "again"
    await two.close()


async def test_ping_answers_while_open(backend: Backend) -> None:
    await backend.store.ping()
