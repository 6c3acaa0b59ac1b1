"""Creating a room on Redis: one command for an unlisted room, the CREATE script reading
(or setting) the dataset's epoch in the same step (rooms.backends.redis.epoch); a listed room sends
its lobby entry first (never a hidden room). A Redis that lost its data is noticed there."""

from __future__ import annotations

import pytest

from rooms import ErrorCode, RoomError
from rooms.backends.redis.batch import AutoPipeline
from rooms.backends.redis.store import RedisStore
from tests.support.backends import BackendMaker
from tests.support.redis_server import RedisServer

pytestmark = pytest.mark.redis


async def opened(maker: BackendMaker) -> RedisStore:
    store = (await maker.make()).store
    assert isinstance(store, RedisStore)
    return store


def sent(store: RedisStore) -> int:
    """Commands the store's auto-pipelining has sent so far (rooms.backends.redis.batch)."""
    calls = store.calls
    assert isinstance(calls, AutoPipeline)
    return calls.commands


async def test_an_unlisted_room_is_one_command_and_a_listed_one_two(
    maker: BackendMaker, redis_server: RedisServer
) -> None:
    store = await opened(maker)
    assert await store.create("warmroom", "v0", listed=False)  # NOSCRIPT, once per Redis
    before = sent(store)
    assert await store.create("quietroom", "v0", listed=False)
    assert sent(store) - before == 1
    before = sent(store)
    assert await store.create("openroom", "v0", listed=True)
    assert sent(store) - before == 2  # ZADD to the lobby, then the script
    lobby = redis_server.client().zrange(f"{maker.prefix}:lobby", 0, -1)
    assert lobby == ["openroom"]
    before = sent(store)
    assert not await store.create("quietroom", "v1", listed=False)  # taken: nothing written
    assert sent(store) - before == 1
    loaded = await store.load("quietroom")
    assert loaded is not None and (loaded.version, loaded.data) == (0, "v0")


async def test_the_create_script_reads_the_epoch_and_notices_a_lost_dataset(
    maker: BackendMaker, redis_server: RedisServer
) -> None:
    store, other = await opened(maker), await opened(maker)
    epoch = store.epoch
    assert epoch is not None and other.epoch == epoch
    assert await store.create("firstroom", "v0", listed=False)
    assert store.epoch == epoch and store.losses == 0
    redis_server.client().flushall()  # the data is gone, epoch included
    assert await store.create("afterloss", "v0", listed=False)
    assert store.losses == 1 and store.epoch not in (None, epoch)  # a fresh one, set here
    assert await other.create("elsewhere", "v0", listed=False)
    assert other.losses == 1 and other.epoch == store.epoch  # read, not set again
    with pytest.raises(RoomError) as caught:
        await store.load("firstroom")  # seen before the loss: lost, not expired
    assert caught.value.code is ErrorCode.ROOM_NOT_FOUND and "was lost" in caught.value.message
