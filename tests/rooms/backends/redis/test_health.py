"""The bus reader's health watch (rooms.backends.redis.health): no timer per message, a PING when
the connection is quiet, a reconnect after ``health_timeout`` of silence, nothing left
armed once the reader is done. Counts, never durations."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from redis import exceptions as rx

from rooms.backends.redis.bus import RedisBus
from rooms.backends.redis.connect import RedisOptions
from rooms.backends.redis.health import HealthWatch
from rooms.backends.redis.keys import KeyLayout
from tests.support.redis_server import RedisServer
from tests.support.waiting import eventually

BOUND = 10.0


# -- the watch alone ------------------------------------------------------------------------


async def test_a_quiet_block_is_pinged_then_given_up_on() -> None:
    pings = 0

    async def ping() -> None:
        nonlocal pings
        pings += 1

    with pytest.raises(rx.TimeoutError, match="no reply from Redis for"):
        async with HealthWatch(interval=0.02, timeout=0.2, ping=ping) as watch:
            await asyncio.sleep(BOUND)  # the test: a read that never returns
    assert watch.silent is not None and watch.silent >= 0.2
    assert 2 <= pings <= 10  # one per quiet interval (0.2 / 0.02), not a storm


async def test_a_block_that_keeps_hearing_is_neither_pinged_nor_cancelled() -> None:
    pings = 0

    async def ping() -> None:
        nonlocal pings
        pings += 1

    loop = asyncio.get_running_loop()
    async with HealthWatch(interval=0.25, timeout=0.5, ping=ping) as watch:
        # The test: several timeouts' worth of time, never quiet for an interval.
        end = loop.time() + 0.8
        while loop.time() < end:
            watch.heard = loop.time()
            await asyncio.sleep(0.005)
    assert pings == 0 and watch.silent is None


async def test_leaving_the_block_cancels_the_timer_and_a_ping_in_flight() -> None:
    sending: list[asyncio.Task[Any]] = []

    async def ping() -> None:  # a PING whose send never completes
        task = asyncio.current_task()
        assert task is not None
        sending.append(task)
        await asyncio.Event().wait()

    with pytest.raises(ConnectionError):
        async with HealthWatch(interval=0.02, timeout=BOUND, ping=ping) as watch:
            await eventually(lambda: bool(sending), "a ping is sent")
            raise ConnectionError("the read failed")  # any way out
    assert watch._handle is None
    await eventually(sending[0].done, "the ping in flight ended")
    assert len(sending) == 1 and sending[0].cancelled()


# -- the bus reader -------------------------------------------------------------------------


@pytest.fixture
def watches(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """How many health watches were entered and left, and how often their timers fired."""
    counts = {"entered": 0, "left": 0, "checks": 0}
    enter, leave, check = HealthWatch.__aenter__, HealthWatch.__aexit__, HealthWatch._check

    async def entering(self: HealthWatch) -> HealthWatch:
        counts["entered"] += 1
        return await enter(self)

    async def leaving(self: HealthWatch, *args: Any) -> None:
        counts["left"] += 1
        await leave(self, *args)

    def checking(self: HealthWatch) -> None:
        counts["checks"] += 1
        check(self)

    monkeypatch.setattr(HealthWatch, "__aenter__", entering)
    monkeypatch.setattr(HealthWatch, "__aexit__", leaving)
    monkeypatch.setattr(HealthWatch, "_check", checking)
    yield counts


def ping_calls(server: RedisServer) -> int:
    stats = server.client().info("commandstats")
    return int(stats.get("cmdstat_ping", {}).get("calls", 0))


@pytest.mark.redis
async def test_the_reader_arms_no_timer_per_message(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    n, interval = 2000, 0.5
    bus = RedisBus(redis_server.url, prefix="notimer", health_interval=interval, health_timeout=5.0)
    await bus.open()
    try:
        subscription = await bus.subscribe("roomtick")
        got, done = 0, asyncio.Event()

        def arrived(message: str) -> None:
            nonlocal got
            got += 1
            if got == n:
                done.set()

        subscription.listen(arrived)
        loop = asyncio.get_running_loop()
        armed = 0
        call_at = loop.call_at  # call_later and asyncio.timeout both arm through it

        def counting(*args: Any, **kwargs: Any) -> asyncio.TimerHandle:
            nonlocal armed
            armed += 1
            return call_at(*args, **kwargs)

        def publish_all() -> None:  # another process's commits, from a thread: no timers here
            pipe = redis_server.client().pipeline(transaction=False)
            for i in range(n):
                pipe.publish(KeyLayout("notimer").channel("roomtick"), f'{{"version":{i}}}')
            pipe.execute()

        monkeypatch.setattr(loop, "call_at", counting)
        started = loop.time()
        await asyncio.to_thread(publish_all)
        await done.wait()
        elapsed = loop.time() - started
        monkeypatch.undo()
        # The watch re-arms about once per interval; a timer per read would be n of them.
        assert armed <= 2 + 2 * elapsed / interval, (armed, elapsed)
        await subscription.close()
    finally:
        await bus.close()


@pytest.mark.redis
async def test_a_quiet_connection_is_pinged_and_kept(
    redis_server: RedisServer, watches: dict[str, int]
) -> None:
    bus = RedisBus(redis_server.url, prefix="quiet", health_interval=0.05, health_timeout=5.0)
    before = ping_calls(redis_server)
    await bus.open()
    subscription = await bus.subscribe("roomquiet")
    await eventually(lambda: ping_calls(redis_server) >= before + 3, "PINGs while quiet")
    assert bus.connections == 1  # each PING's reply counts as heard: no reconnect
    assert watches["entered"] - watches["left"] == 1  # one watch, on the live connection
    await subscription.close()
    await bus.close()
    assert watches["entered"] == watches["left"] == 1
    checks = watches["checks"]
    # Nothing happens, bounded: six intervals, in which a timer left armed would have fired.
    await asyncio.sleep(0.3)
    assert watches["checks"] == checks


@pytest.mark.redis
async def test_a_silent_redis_is_left_for_a_new_connection(
    redis_server: RedisServer, watches: dict[str, int], caplog: pytest.LogCaptureFixture
) -> None:
    """A frozen Redis (SIGSTOP) answers nothing, PINGs included: after ``health_timeout``
    the reader gives up on the connection, logs it and reconnects; once Redis is back the
    channel is live again."""
    caplog.set_level(logging.WARNING, logger="tictactoe.rooms")
    options = RedisOptions(timeout=1.0, socket_timeout=0.3, connect_timeout=0.3)
    bus = RedisBus(
        redis_server.url, prefix="frozen", options=options, health_interval=0.05, health_timeout=0.3
    )
    await bus.open()
    subscription = await bus.subscribe("roomcold")
    redis_server.pause()
    try:
        await eventually(lambda: "no reply from Redis for" in caplog.text, "the watch gives up")
    finally:
        redis_server.resume()
    assert "redis bus: connection lost (no reply from Redis for" in caplog.text
    await eventually(lambda: bus.connections >= 2 and bus._conn is not None, "reconnected")
    channel = KeyLayout("frozen").channel("roomcold")
    sync = redis_server.client()
    await eventually(lambda: sync.publish(channel, '{"version":1}') == 1, "resubscribed")
    assert await asyncio.wait_for(subscription.get(), BOUND) == '{"version":1}'
    await subscription.close()
    await bus.close()
    assert watches["entered"] == watches["left"] >= 2  # every connection's watch stopped
