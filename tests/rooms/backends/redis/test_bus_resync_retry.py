"""The bus's re-delivery after a reconnect is tried again when Redis cannot answer it yet
(a partition healing, a failover): the latest logged event may be a game's last, and the
only sign a listener that missed it would ever get."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from rooms import ErrorCode, RoomError
from rooms.backends.redis.bus import RedisBus
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.redis.scripts import COMMIT
from tests.rooms.backends.redis.test_bus import plain_commit
from tests.support.backends import BackendMaker, event
from tests.support.redis_server import RedisServer

pytestmark = pytest.mark.redis


async def test_a_resync_that_fails_is_tried_again_until_it_delivers(
    maker: BackendMaker, redis_server: RedisServer
) -> None:
    pair = await maker.make()
    bus = pair.bus
    assert isinstance(bus, RedisBus)
    failures = [RoomError(ErrorCode.UNAVAILABLE, "resync: no answer within 2s")] * 2
    reads: list[list[str]] = []
    latest = bus._latest

    async def failing_at_first(rooms: list[str]) -> list[Any]:
        reads.append(rooms)
        if failures:
            raise failures.pop()
        return await latest(rooms)

    bus._latest = failing_at_first  # type: ignore[method-assign]
    subscription = await bus.subscribe("roomlast")
    await pair.store.create("roomlast", "v0", listed=False)
    assert await pair.store.commit("roomlast", 0, "v1", event(1), listed=False)
    assert await asyncio.wait_for(subscription.get(), 5.0) == event(1)
    sync = redis_server.client()
    sync.client_kill_filter(_type="pubsub")
    # The game's last event, published while the bus is cut off: lost to it.
    args = plain_commit(KeyLayout(maker.prefix).room("roomlast"), 1, "v2", event(2))
    sync.eval(COMMIT, len(args.keys()), *args.keys(), *args.argv())
    assert await asyncio.wait_for(subscription.get(), 10.0) == event(2)
    assert reads == [["roomlast"]] * 3 and bus.resyncs == 1
    await subscription.close()
