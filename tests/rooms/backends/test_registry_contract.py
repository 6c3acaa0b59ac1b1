"""The presence registry's contract, on every backend (memory, a real Redis, a real Redis
Cluster): leases that are renewed or gone for good, an index that only grows while its
lease lives, exactly one claimer at a time, claims that pass on when abandoned, and a
worker forgotten only by its claimer once its index is empty."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import redis
from redis.crc import key_slot

from rooms.backends import MemoryRegistry, Registry
from rooms.backends.redis.presence import RedisRegistry
from rooms.common import new_worker_id
from tests.support.backends import BACKEND_URLS, backend_url, registry_for, unique_prefix
from tests.support.waiting import eventually

WAIT = 10.0  # a bound against hangs, never a measurement
MakeRegistry = Callable[[], Awaitable[Registry]]


def with_prefix(url: str, prefix: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}prefix={prefix}"


@pytest.fixture(params=BACKEND_URLS)
async def make_registry(request: pytest.FixtureRequest) -> AsyncIterator[MakeRegistry]:
    """Registries of several workers on one backend (memory: one shared object; Redis:
    one client per worker, as separate processes have), under a prefix of this test."""
    opened: list[Registry] = []
    prefix = unique_prefix()
    shared = MemoryRegistry()

    async def make() -> Registry:
        if request.param == "memory://":
            registry: Registry = shared
        else:
            registry = registry_for(with_prefix(backend_url(request), prefix))
        await registry.open()
        opened.append(registry)
        return registry

    yield make
    for registry in opened:
        await registry.close()


async def test_a_lease_is_renewed_until_released_and_then_stays_gone(
    make_registry: MakeRegistry,
) -> None:
    registry = await make_registry()
    worker = new_worker_id()
    await registry.register(worker, 30.0, holder="host-a:41")
    assert await registry.holder(worker) == "host-a:41"
    assert await registry.renew(worker, 30.0)
    assert not await registry.claim(worker, new_worker_id(), 30.0), "claimed a live worker"
    await registry.release(worker)
    assert await registry.holder(worker) is None
    assert not await registry.renew(worker, 30.0)
    assert not await registry.renew(worker, 30.0), "a gone lease came back"


async def test_an_expired_lease_is_gone_and_its_index_frozen(
    make_registry: MakeRegistry,
) -> None:
    registry = await make_registry()
    worker = new_worker_id()
    await registry.register(worker, 0.3, holder="h")
    assert await registry.add_room(worker, "room-one")

    async def expired() -> bool:
        return await registry.holder(worker) is None

    await eventually(expired, "the lease expired", timeout=WAIT)
    assert not await registry.renew(worker, 30.0)
    assert not await registry.add_room(worker, "room-two"), "a dead worker's index grew"
    assert await registry.rooms(worker, 10) == ["room-one"]


async def test_exactly_one_of_many_claimers_holds_the_claim(make_registry: MakeRegistry) -> None:
    registries = [await make_registry() for _ in range(4)]
    dead = new_worker_id()
    await registries[0].register(dead, 30.0, holder="h")
    await registries[0].release(dead)
    claimers = [new_worker_id() for _ in range(12)]
    won = await asyncio.gather(
        *(registries[i % 4].claim(dead, claimer, 30.0) for i, claimer in enumerate(claimers))
    )
    assert won.count(True) == 1
    winner = claimers[won.index(True)]
    assert await registries[1].claim(dead, winner, 30.0), "the holder could not claim again"
    assert not await registries[2].claim(dead, claimers[won.index(False)], 30.0)


async def test_an_abandoned_claim_passes_to_another_worker(make_registry: MakeRegistry) -> None:
    first, second = await make_registry(), await make_registry()
    dead, a, b = new_worker_id(), new_worker_id(), new_worker_id()
    await first.register(dead, 30.0, holder="h")
    await first.release(dead)
    assert await first.claim(dead, a, 0.3)
    assert not await second.claim(dead, b, 30.0)

    async def taken_over() -> bool:
        return await second.claim(dead, b, 30.0)

    # a stopped claiming: its claim lapsed
    await eventually(taken_over, "the claim taken over", timeout=WAIT)
    assert not await first.claim(dead, a, 30.0)
    assert not await first.finish(dead, a), "a finished though b holds the claim"


async def test_finish_takes_the_claim_and_an_empty_index(make_registry: MakeRegistry) -> None:
    registry, other = await make_registry(), await make_registry()
    dead, claimer, stranger = new_worker_id(), new_worker_id(), new_worker_id()
    await registry.register(dead, 30.0, holder="h")
    for room_id in ("r1", "r2", "r3"):
        assert await registry.add_room(dead, room_id)
    await registry.remove_room(dead, "r3")
    assert not await registry.finish(dead, claimer), "finished without a claim"
    await registry.release(dead)
    assert await other.claim(dead, claimer, 30.0)
    assert sorted(await registry.rooms(dead, 10)) == ["r1", "r2"]
    assert len(await registry.rooms(dead, 1)) == 1  # bounded
    assert not await registry.finish(dead, stranger)
    assert not await registry.finish(dead, claimer), "finished with rooms left"
    for room_id in ("r1", "r2"):
        await registry.remove_room(dead, room_id)
    assert await registry.finish(dead, claimer)
    assert dead not in await all_listed(registry)
    assert await registry.rooms(dead, 10) == []


async def all_listed(registry: Registry) -> set[str]:
    seen: set[str] = set()
    cursor = 0
    for _ in range(1000):
        cursor, found = await registry.scan(cursor, 4)
        seen.update(found)
        if cursor == 0:
            return seen
    raise AssertionError("the scan never came back to 0")


async def test_a_scan_visits_every_listed_worker(make_registry: MakeRegistry) -> None:
    registry = await make_registry()
    workers = {new_worker_id() for _ in range(40)}
    for worker in workers:
        await registry.register(worker, 30.0, holder="h")
    assert workers <= await all_listed(registry)


@pytest.mark.redis
async def test_a_workers_keys_share_one_cluster_slot_and_a_named_client(
    redis_url: str,
) -> None:
    registry = registry_for(with_prefix(redis_url, "slots"))
    assert isinstance(registry, RedisRegistry)
    await registry.open()
    try:
        worker = new_worker_id()
        keys = [f"slots:{{w:{worker}}}:{what}" for what in ("lease", "rooms", "claim")]
        assert len({key_slot(key.encode()) for key in keys}) == 1
        await registry.register(worker, 30.0, holder="h")
        assert await registry.client.exists(keys[0]) == 1
        plain = redis.Redis.from_url(redis_url, decode_responses=True)
        try:
            names = {client.get("name") for client in plain.client_list()}
        finally:
            plain.close()
        assert "slots-presence" in names  # heartbeats are told apart from room traffic
    finally:
        await registry.close()
