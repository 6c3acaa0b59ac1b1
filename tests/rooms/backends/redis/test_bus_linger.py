"""The Redis bus keeps a channel with no listener subscribed for a while (``linger``): a
listener coming back finds it live without a command, and the unused channels go together,
one ``UNSUBSCRIBE`` for many; a lingering channel is forgotten when the connection is lost."""

from __future__ import annotations

import asyncio
import time

import pytest

from rooms.backends.redis.bus import RedisBus
from rooms.backends.redis.keys import KeyLayout
from tests.rooms.backends.redis.test_bus import numsub
from tests.support.backends import event
from tests.support.redis_server import RedisServer
from tests.support.waiting import eventually

pytestmark = pytest.mark.redis


async def opened(server: RedisServer, prefix: str, linger: float) -> RedisBus:
    bus = RedisBus(server.url, prefix=prefix, linger=linger)
    await bus.open()
    return bus


async def test_a_listener_coming_back_finds_the_channel_live_without_a_command(
    redis_server: RedisServer,
) -> None:
    sync, layout = redis_server.client(), KeyLayout("linger")
    bus = await opened(redis_server, "linger", linger=0.5)
    try:
        first = await bus.subscribe("roomback")
        await first.close()
        assert bus.subscribers("roomback") == 0 and bus.lingering() == 1
        assert numsub(sync, layout, "roomback") == 1  # still subscribed at Redis
        again = await asyncio.wait_for(bus.subscribe("roomback"), 1.0)
        assert bus.sent["SUBSCRIBE"] == 1 and bus.lingering() == 0
        await bus.publish("roomback", event(1))
        assert await asyncio.wait_for(again.get(), 5.0) == event(1)
        await again.close()
        started = time.monotonic()
        await eventually(lambda: numsub(sync, layout, "roomback") == 0, "unsubscribed")
        assert 0.4 < time.monotonic() - started < 3.0  # the linger, and not much longer
        assert (bus.sent["SUBSCRIBE"], bus.sent["UNSUBSCRIBE"]) == (1, 1)
        assert bus.lingering() == 0
        # Gone for good: the next listener subscribes anew, and hears what is published.
        late = await bus.subscribe("roomback")
        await bus.publish("roomback", event(2))
        assert await asyncio.wait_for(late.get(), 5.0) == event(2)
        assert bus.sent["SUBSCRIBE"] == 2
        await late.close()
    finally:
        await bus.close()


async def test_unused_channels_are_unsubscribed_together_and_their_messages_dropped(
    redis_server: RedisServer,
) -> None:
    sync, layout = redis_server.client(), KeyLayout("together")
    bus = await opened(redis_server, "together", linger=0.4)
    try:
        rooms = [f"room{i:04d}" for i in range(5)]
        for subscription in [await bus.subscribe(room_id) for room_id in rooms]:
            await subscription.close()
        kept = await bus.subscribe("roomkept")
        await bus.publish(rooms[0], event(1))  # arrives while it lingers: nobody to give it
        await bus.publish("roomkept", event(1))
        assert await asyncio.wait_for(kept.get(), 5.0) == event(1)
        await eventually(
            lambda: all(numsub(sync, layout, room_id) == 0 for room_id in rooms), "unsubscribed"
        )
        assert bus.sent["UNSUBSCRIBE"] == 1  # one command for the five channels
        assert numsub(sync, layout, "roomkept") == 1 and bus.lingering() == 0
        await kept.close()
    finally:
        await bus.close()


async def test_a_lingering_channel_is_forgotten_when_the_connection_is_lost(
    redis_server: RedisServer,
) -> None:
    bus = await opened(redis_server, "lost", linger=60.0)
    try:
        gone = await bus.subscribe("roomlost")
        await gone.close()
        assert bus.lingering() == 1
        redis_server.client().client_kill_filter(_type="pubsub")
        await eventually(lambda: bus.connections == 2 and bus._conn is not None, "reconnected")
        assert bus.lingering() == 0
        back = await asyncio.wait_for(bus.subscribe("roomlost"), 5.0)
        assert bus.sent["SUBSCRIBE"] == 2  # subscribed again on the new connection
        await bus.publish("roomlost", event(1))
        assert await asyncio.wait_for(back.get(), 5.0) == event(1)
        await back.close()
    finally:
        await bus.close()
    assert bus.lingering() == 0


async def test_no_linger_unsubscribes_at_once(redis_server: RedisServer) -> None:
    sync, layout = redis_server.client(), KeyLayout("atonce")
    bus = await opened(redis_server, "atonce", linger=0)
    try:
        subscription = await bus.subscribe("roomnow")
        await subscription.close()
        assert (bus.sent["SUBSCRIBE"], bus.sent["UNSUBSCRIBE"]) == (1, 1)
        assert bus.lingering() == 0
        await eventually(lambda: numsub(sync, layout, "roomnow") == 0, "unsubscribed")
    finally:
        await bus.close()


@pytest.mark.parametrize("linger", [-1, "2", True, float("nan")])
def test_a_bad_linger_is_refused(linger: object) -> None:
    with pytest.raises(ValueError, match="linger must be a number of seconds"):
        RedisBus("redis://127.0.0.1:1/0", linger=linger)  # type: ignore[arg-type]
