"""The deadlines of the hot store calls (rooms.backends.redis.deadlines): one timer for many blocks,
armed only while blocks are inside; an overdue block fails with the typed ``unavailable``
error within its bound (never before its timeout); a cancel from elsewhere stays a cancel;
against a real, frozen redis-server: every caller times out, a command whose caller timed
out before it was sent never reaches Redis, the replies that come late reach nobody, and
the store serves again. Bounds are generous (a deadline fires within 2 x timeout + 1 s),
never benchmarks."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from redis import exceptions as rx

from rooms import ErrorCode, RoomError
from rooms.backends import StoredRoom
from rooms.backends.redis.batch import AutoPipeline, DirectCalls
from rooms.backends.redis.cluster.pair import make_cluster_client, parse_cluster_url
from rooms.backends.redis.connect import RedisOptions, guarded, make_client
from rooms.backends.redis.deadlines import Deadlines
from rooms.backends.redis.presence import RedisRegistry
from rooms.backends.redis.store import RedisStore
from tests.support.backends import event, unique_prefix
from tests.support.redis_server import RedisServer
from tests.support.waiting import eventually

TIMEOUT = 0.4
BOUND = 15.0  # a safety net so a hang fails the test instead of stalling the suite
# The socket timeout far beyond the deadline: what fires here is the deadline.
SILENT = RedisOptions(timeout=TIMEOUT, socket_timeout=30.0, connect_timeout=30.0)


def assert_unavailable(result: object, timeout: float = TIMEOUT) -> None:
    assert isinstance(result, RoomError), repr(result)
    assert result.code is ErrorCode.UNAVAILABLE
    assert f"no answer within {timeout:g}s" in result.message and "retry" in result.message


async def timed(call: Awaitable[Any]) -> tuple[Any, float]:
    """The call's result (or exception) and the seconds it took."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        result = await asyncio.wait_for(call, BOUND)
    except Exception as exc:  # the result under test
        result = exc
    return result, loop.time() - started


def armed(deadlines: Deadlines) -> bool:
    return deadlines.armed  # a call: mypy would take one look at the property for all


# -- the deadlines alone --------------------------------------------------------------------


async def test_an_overdue_block_fails_typed_after_its_timeout_not_much_later() -> None:
    deadlines = Deadlines(TIMEOUT)
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(RoomError) as info:
        async with deadlines.guard("load"):
            await asyncio.sleep(BOUND)  # the test: a reply that never comes in time
    took = loop.time() - started
    assert_unavailable(info.value)
    assert "(load:" in info.value.message
    assert TIMEOUT <= took <= 2 * TIMEOUT + 1.0
    task = asyncio.current_task()
    assert task is not None and task.cancelling() == 0  # the cancel was taken back
    await asyncio.sleep(0)  # the test: this task still awaits as usual (not cancelled)
    deadlines.close()


async def test_many_blocks_share_one_timer_and_each_meets_its_own_deadline() -> None:
    deadlines = Deadlines(TIMEOUT)
    loop = asyncio.get_running_loop()
    handles: set[object] = set()

    async def block(index: int) -> None:
        async with deadlines.guard("load"):
            handles.add(deadlines._handle)
            if index % 2:  # every other one never hears back
                await loop.create_future()
            await asyncio.sleep(0.01)  # the test: the others hear back in time

    results = await asyncio.wait_for(
        asyncio.gather(*(block(i) for i in range(200)), return_exceptions=True), BOUND
    )
    assert len(handles) == 1  # armed by the first, not per block
    for index, result in enumerate(results):
        if index % 2:
            assert_unavailable(result)
        else:
            assert result is None
    deadlines.close()


async def test_a_later_block_meets_its_own_deadline_after_the_timer_moves_on() -> None:
    deadlines = Deadlines(TIMEOUT)
    loop = asyncio.get_running_loop()
    async with deadlines.guard("load"):  # arms the timer for its own deadline, then leaves
        pass
    await asyncio.sleep(TIMEOUT * 0.75)  # the test: time passes, the timer moves on
    started = loop.time()
    with pytest.raises(RoomError) as info:
        async with deadlines.guard("load"):
            await asyncio.sleep(BOUND)  # the test: a reply that never comes in time
    took = loop.time() - started
    assert_unavailable(info.value)
    assert TIMEOUT <= took <= 2 * TIMEOUT + 1.0  # counted from its own entry
    deadlines.close()


async def test_no_timer_stays_armed_when_idle() -> None:
    deadlines = Deadlines(TIMEOUT)
    assert not armed(deadlines)
    for _ in range(3):
        async with deadlines.guard("load"):
            await asyncio.sleep(0)  # a block that awaits once, as a hot call does
    assert armed(deadlines) and deadlines.inside == 0  # nothing inside: nothing kept
    # Left alone, the timer fires once more, finds nobody and is not armed again.
    await eventually(lambda: not deadlines.armed, "the timer disarmed", timeout=BOUND)
    await asyncio.sleep(2 * TIMEOUT)  # nothing happens: bounded, two timeouts of no re-arming
    assert not deadlines.armed


async def test_a_cancel_from_elsewhere_stays_a_cancel() -> None:
    deadlines = Deadlines(TIMEOUT)
    loop = asyncio.get_running_loop()
    inside = asyncio.Event()

    async def waiting() -> None:
        async with deadlines.guard("load"):
            inside.set()
            await loop.create_future()

    task = asyncio.create_task(waiting())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert deadlines.inside == 0
    # The deadline of a block that was cancelled meanwhile fires on nobody (nothing happens:
    # bounded, past that deadline).
    await asyncio.sleep(TIMEOUT * 1.5)
    assert not deadlines.armed
    deadlines.close()


async def test_redis_failures_are_typed_as_under_guarded() -> None:
    deadlines = Deadlines(TIMEOUT)
    with pytest.raises(RoomError) as info:
        async with deadlines.guard("commit"):
            raise rx.ConnectionError("Connection reset by peer")
    assert info.value.code is ErrorCode.UNAVAILABLE and "reset" in info.value.message
    with pytest.raises(RoomError) as info:
        async with deadlines.guard("commit"):
            raise rx.ResponseError("WRONGTYPE Operation against a key")
    assert info.value.code is ErrorCode.INTERNAL_ERROR and "WRONGTYPE" in info.value.message
    mine = RoomError(ErrorCode.ROOM_NOT_FOUND, "gone")
    with pytest.raises(RoomError) as info:
        async with deadlines.guard("load"):
            raise mine
    assert info.value is mine
    with pytest.raises(ValueError):
        async with deadlines.guard("load"):
            raise ValueError("not Redis'")
    deadlines.close()


async def test_a_cluster_keeps_a_deadline_per_call() -> None:
    cluster = make_cluster_client(parse_cluster_url("redis+cluster://127.0.0.1:1"), SILENT)
    assert isinstance(DirectCalls(cluster).guard("load", TIMEOUT), guarded)


# -- against a frozen redis-server ----------------------------------------------------------


def deadlines_of(pipeline: AutoPipeline) -> Deadlines:
    return pipeline._deadlines[TIMEOUT]


@pytest.mark.redis
async def test_a_silent_redis_times_every_hot_call_out_then_serves_again(
    own_redis_server: RedisServer,
) -> None:
    store = RedisStore(own_redis_server.url, prefix=unique_prefix(), options=SILENT)
    await store.open()
    pipeline = store.calls
    assert isinstance(pipeline, AutoPipeline)
    assert not pipeline._deadlines  # opened: no hot call yet, no timer
    try:
        for i in range(4):
            assert await store.create(f"mute{i}", f"v{i}", listed=False)
        own_redis_server.pause()
        try:
            calls: list[Any] = [timed(store.load(f"mute{i}")) for i in range(2)]
            calls += [
                timed(store.commit(f"mute{i}", 0, "w", event(1), listed=False)) for i in (2, 3)
            ]
            calls.append(timed(store.events_since("mute0", 0)))
            for result, took in await asyncio.gather(*calls):
                assert_unavailable(result)
                assert TIMEOUT <= took <= 2 * TIMEOUT + 1.0
        finally:
            own_redis_server.resume()
        # The late replies of the frozen batch reach nobody; the next ones their callers.
        loads = await asyncio.gather(*(store.load(f"mute{i}") for i in range(4)))
        assert loads[:2] == [StoredRoom(0, "v0"), StoredRoom(0, "v1")]
        # The commits were sent before Redis froze: they may have landed, as on the plain
        # path; whichever way, each room holds one of the two texts, never anything else.
        for i in (2, 3):
            assert loads[i] in (StoredRoom(0, f"v{i}"), StoredRoom(1, "w"))
    finally:
        await store.close()
    assert not deadlines_of(pipeline).armed  # closed: no timer left behind


@dataclass
class _Stuck:
    """A store whose first batch is on the wire to a silent Redis (``on_the_wire``, its
    load), and an ``INCR`` of ``counter`` to queue behind it (``count``)."""

    store: RedisStore
    pipeline: AutoPipeline
    counter: str
    on_the_wire: asyncio.Task[tuple[Any, float]]

    async def count(self) -> Any:
        async with self.pipeline.guard("count", TIMEOUT):
            return await self.pipeline.call("INCR", self.counter)


@asynccontextmanager
async def _behind_a_silent_batch(own_redis_server: RedisServer) -> AsyncIterator[_Stuck]:
    """While Redis is paused (resumed on the way out, then the queue must have moved on:
    the room loads again, and the counter was never incremented)."""
    store = RedisStore(own_redis_server.url, prefix=unique_prefix(), options=SILENT)
    await store.open()
    pipeline = store.calls
    assert isinstance(pipeline, AutoPipeline)
    counter = f"{store.layout.prefix}:counted"
    try:
        assert await store.create("first", "v0", listed=False)
        own_redis_server.pause()
        try:
            sent = pipeline.batches
            on_the_wire = asyncio.create_task(timed(store.load("first")))
            await eventually(
                lambda: pipeline.batches > sent, "the first batch written", timeout=BOUND
            )
            yield _Stuck(store, pipeline, counter, on_the_wire)
            assert_unavailable((await on_the_wire)[0])
        finally:
            own_redis_server.resume()
        assert await store.load("first") == StoredRoom(0, "v0")  # the queue moved on
        assert own_redis_server.client().get(counter) is None
    finally:
        await store.close()


@pytest.mark.redis
async def test_a_command_whose_caller_timed_out_before_it_was_sent_is_never_sent(
    own_redis_server: RedisServer,
) -> None:
    async with _behind_a_silent_batch(own_redis_server) as stuck:
        behind = await timed(stuck.count())  # queued behind the batch Redis does not answer
        assert_unavailable(behind[0])
        assert TIMEOUT <= behind[1] <= 2 * TIMEOUT + 1.0
        commands = stuck.pipeline.commands
    assert stuck.pipeline.commands == commands + 1  # only that load: the INCR never went


@pytest.mark.redis
async def test_a_caller_cancelled_behind_a_silent_batch_is_cancelled_and_never_sent(
    own_redis_server: RedisServer,
) -> None:
    async with _behind_a_silent_batch(own_redis_server) as stuck:
        behind = asyncio.create_task(stuck.count())
        await eventually(
            lambda: len(stuck.pipeline._queue) == 1, "the INCR queued behind the silent batch"
        )
        behind.cancel()
        with pytest.raises(asyncio.CancelledError):
            await behind
    assert deadlines_of(stuck.pipeline).inside == 0


@pytest.mark.redis
async def test_presence_index_writes_time_out_typed_when_redis_is_silent(
    own_redis_server: RedisServer,
) -> None:
    registry = RedisRegistry(
        make_client(own_redis_server.url, SILENT), prefix=unique_prefix(), timeout=TIMEOUT
    )
    try:
        await registry.open()
        await registry.register("w1", 60.0, holder="here")
        assert await registry.add_room("w1", "warm")
        own_redis_server.pause()
        try:
            for result, took in await asyncio.gather(
                timed(registry.add_room("w1", "r1")), timed(registry.remove_room("w1", "warm"))
            ):
                assert_unavailable(result)
                assert TIMEOUT <= took <= 2 * TIMEOUT + 1.0
        finally:
            own_redis_server.resume()
        assert await registry.add_room("w1", "r2")
    finally:
        await registry.close()
