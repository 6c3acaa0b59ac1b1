"""Auto-pipelining of the hot Redis commands (rooms.backends.redis.batch), against real redis-server
processes: concurrent calls share round trips and each gets its own reply or error;
NOSCRIPT reloads once for the command that met it; callers that give up, a lost
connection and a frozen Redis break nothing for the others. Everything here is counted
(batches, MONITOR lines), never timed."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis._parsers import _AsyncHiredisParser
from redis.asyncio.cluster import ClusterNode

from rooms import ErrorCode, RoomError
from rooms.backends import StoredRoom
from rooms.backends.redis.batch import AutoPipeline, DirectCalls, redis_calls
from rooms.backends.redis.cluster.pair import make_cluster_client, parse_cluster_url
from rooms.backends.redis.connect import RedisOptions, make_client
from rooms.backends.redis.presence import RedisRegistry
from rooms.backends.redis.store import RedisStore
from rooms.backends.store import Swapped
from tests.support.backends import event, unique_prefix
from tests.support.counting import count_calls
from tests.support.redis_server import RedisServer
from tests.support.waiting import eventually

pytestmark = pytest.mark.redis

FAST = RedisOptions(timeout=1.0, socket_timeout=0.5, connect_timeout=0.5)
BOUND = 15.0  # a safety net so a hang fails the test instead of stalling the suite
_END = "test-batch:end"


@contextlib.asynccontextmanager
async def monitored(url: str) -> AsyncIterator[Counter[str]]:
    """Count the commands Redis runs for clients (not inside scripts) in the block, by
    name (``script`` counts as ``script load`` and so on)."""
    client = aioredis.Redis.from_url(url, decode_responses=True)
    seen: Counter[str] = Counter()
    listening = asyncio.Event()

    async def collect() -> None:
        async with client.monitor() as monitor:
            listening.set()
            while True:
                line = await monitor.next_command()
                if line["command"] == f"ECHO {_END}":
                    return
                if line["client_type"] != "lua":
                    words = line["command"].lower().split(" ")
                    name = " ".join(words[:2]) if words[0] == "script" else words[0]
                    seen[name] += 1

    marker = aioredis.Redis.from_url(url)
    await marker.ping()  # connected before MONITOR starts: its HELLO is not counted
    task = asyncio.create_task(collect())
    try:
        await asyncio.wait_for(listening.wait(), BOUND)
        yield seen
        await marker.echo(_END)
        await asyncio.wait_for(task, BOUND)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await marker.aclose()
        await client.aclose()


async def open_store(url: str, options: RedisOptions = FAST) -> RedisStore:
    store = RedisStore(url, prefix=unique_prefix(), options=options)
    await store.open()
    return store


def pipeline_of(store: RedisStore) -> AutoPipeline:
    assert isinstance(store.calls, AutoPipeline)
    return store.calls


def test_replies_are_parsed_by_hiredis() -> None:
    client = make_client("redis://127.0.0.1:1/0", RedisOptions())
    made = client.connection_pool.make_connection()  # type: ignore[no-untyped-call]
    assert isinstance(made._parser, _AsyncHiredisParser)
    node = ClusterNode("127.0.0.1", 1)
    made = node.connection_class(**node.connection_kwargs)
    assert isinstance(made._parser, _AsyncHiredisParser)


def test_a_cluster_keeps_the_plain_path() -> None:
    cluster = make_cluster_client(parse_cluster_url("redis+cluster://127.0.0.1:1"), FAST)
    assert isinstance(redis_calls(cluster), DirectCalls)
    assert isinstance(redis_calls(make_client("redis://127.0.0.1:1/0", FAST)), AutoPipeline)


def test_auto_pipelining_off_sends_each_command_with_plain_redis_py() -> None:
    """``RedisOptions(auto_pipeline=False)`` (``tictactoe serve --no-fastpath``)."""
    plain = RedisOptions(auto_pipeline=False)
    assert isinstance(
        redis_calls(make_client("redis://127.0.0.1:1/0", plain), auto_pipeline=False), DirectCalls
    )
    store = RedisStore("redis://127.0.0.1:1/0", options=plain)
    assert isinstance(store.calls, DirectCalls)


async def test_concurrent_commits_share_one_round_trip_each_with_its_own_reply(
    own_redis_server: RedisServer,
) -> None:
    store = await open_store(own_redis_server.url)
    try:
        rooms = [f"share{i:03d}" for i in range(40)]
        for room_id in [*rooms, "warm"]:
            assert await store.create(room_id, "v0", listed=False)
        assert await store.commit("warm", 0, "v1", event(1), listed=False)  # script loaded
        pipeline = pipeline_of(store)
        before = pipeline.batches
        async with monitored(own_redis_server.url) as seen:
            # Every other caller is stale: refused with the stored copy, the rest land.
            swaps = await asyncio.gather(
                *(
                    store.swap(room_id, i % 2, "v1", event(1), listed=False)
                    for i, room_id in enumerate(rooms)
                )
            )
        assert pipeline.batches - before == 1  # issued in one turn: one pipeline
        assert seen == {"evalsha": 40}  # each still one command, nothing added
        for i, swapped in enumerate(swaps):
            assert swapped == (Swapped(True) if i % 2 == 0 else Swapped(False, StoredRoom(0, "v0")))
        loads = await asyncio.gather(*(store.load(room_id) for room_id in rooms))
        assert [stored.version for stored in loads if stored] == [1 - i % 2 for i in range(40)]
    finally:
        await store.close()


async def test_a_reply_error_belongs_to_its_command_alone(own_redis_server: RedisServer) -> None:
    store = await open_store(own_redis_server.url)
    try:
        for room_id in ("good1", "good2"):
            await store.create(room_id, "v0", listed=False)
        own_redis_server.client().rpush(store.layout.room("broken").room, "not a hash")
        results = await asyncio.gather(
            store.load("good1"),
            store.load("broken"),
            store.load("good2"),
            return_exceptions=True,
        )
        assert results[0] == results[2] == StoredRoom(0, "v0")
        assert isinstance(results[1], RoomError)
        assert results[1].code is ErrorCode.INTERNAL_ERROR and "WRONGTYPE" in results[1].message
    finally:
        await store.close()


async def test_noscript_reloads_once_for_the_scripts_that_met_it(
    own_redis_server: RedisServer,
) -> None:
    store = await open_store(own_redis_server.url)
    try:
        rooms = [f"flush{i:03d}" for i in range(10)]
        for room_id in rooms:
            await store.create(room_id, "v0", listed=False)
        own_redis_server.client().script_flush()
        async with monitored(own_redis_server.url) as seen:
            results = await asyncio.gather(
                *(store.commit(room_id, 0, "v1", event(1), listed=False) for room_id in rooms),
                *(store.load(room_id) for room_id in rooms),
            )
        assert results[:10] == [True] * 10
        # The loads went once; each commit twice around one shared SCRIPT LOAD.
        assert seen == {"evalsha": 20, "script load": 1, "hmget": 10}
        # The steady state again: one command per commit, nothing checks for the script.
        async with monitored(own_redis_server.url) as seen:
            assert (
                await asyncio.gather(
                    *(store.commit(room_id, 1, "v2", event(2), listed=False) for room_id in rooms)
                )
                == [True] * 10
            )
        assert seen == {"evalsha": 10}
    finally:
        await store.close()


async def test_a_caller_that_gives_up_leaves_the_batch_alone(own_redis_server: RedisServer) -> None:
    store = await open_store(own_redis_server.url, RedisOptions(timeout=30.0, socket_timeout=30.0))
    try:
        for i in range(6):
            await store.create(f"quit{i}", f"v{i}", listed=False)
        pipeline = pipeline_of(store)
        # Cancelled before its batch left: never sent.
        async with monitored(own_redis_server.url) as seen:
            tasks = [asyncio.create_task(store.load(f"quit{i}")) for i in range(6)]
            # One turn of the loop, no more: every task has queued its command and the
            # batch has not left yet, the moment under test (a polled wait would miss it).
            await asyncio.sleep(0)
            tasks[2].cancel()
            results = await asyncio.gather(*tasks, return_exceptions=True)
        assert isinstance(results[2], asyncio.CancelledError)
        assert [r for i, r in enumerate(results) if i != 2] == [
            StoredRoom(0, f"v{i}") for i in (0, 1, 3, 4, 5)
        ]
        assert seen == {"hmget": 5}
        # Cancelled while its batch was on the wire (Redis frozen): its reply is read and
        # dropped, the others get theirs, and the connection stays in step.
        sent = pipeline.batches
        own_redis_server.pause()
        try:
            tasks = [asyncio.create_task(store.load(f"quit{i}")) for i in range(6)]
            await eventually(lambda: pipeline.batches > sent, "the batch on the wire")
            assert pipeline.batches == sent + 1
            tasks[4].cancel()
        finally:
            own_redis_server.resume()
        results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), BOUND)
        assert isinstance(results[4], asyncio.CancelledError)
        assert [r for i, r in enumerate(results) if i != 4] == [
            StoredRoom(0, f"v{i}") for i in (0, 1, 2, 3, 5)
        ]
        assert await store.load("quit4") == StoredRoom(0, "v4")
        assert pipeline.batches == sent + 2  # nothing was sent twice
    finally:
        await store.close()


async def test_a_batch_is_written_without_a_task_of_its_own(
    own_redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """redis-py writes through ``asyncio.wait_for`` (a task, a loop turn later) when the
    connection has a socket timeout: the batch writes to the wire at once, under its own
    timeout, and leaves the connection's timeout as it was."""
    store = await open_store(own_redis_server.url)
    try:
        await store.create("turn0", "v0", listed=False)
        waits = count_calls(monkeypatch, asyncio, "wait_for")
        for _ in range(5):
            assert await store.load("turn0") == StoredRoom(0, "v0")
        assert await store.swap("turn0", 0, "v1", event(1), listed=False) == Swapped(True)
        assert waits.calls == 0
        connection = pipeline_of(store)._connection
        assert connection.socket_timeout == FAST.socket_timeout
    finally:
        await store.close()


async def test_a_lost_redis_reaches_every_waiting_caller_as_unavailable(
    own_redis_server: RedisServer,
) -> None:
    store = await open_store(own_redis_server.url)
    try:
        for i in range(8):
            await store.create(f"lost{i}", "v0", listed=False)
        own_redis_server.kill()
        calls: list[Any] = [store.load(f"lost{i}") for i in range(4)]
        calls += [store.swap(f"lost{i}", 0, "v1", event(1), listed=False) for i in range(4, 8)]
        results = await asyncio.wait_for(asyncio.gather(*calls, return_exceptions=True), BOUND)
        for result in results:
            assert isinstance(result, RoomError), result
            assert result.code is ErrorCode.UNAVAILABLE and "retry" in result.message
        own_redis_server.start()  # empty: no AOF. The kept connection reconnects on its next use.
        assert await asyncio.wait_for(store.create("after", "v0", listed=False), BOUND)
        assert await store.load("after") == StoredRoom(0, "v0")
    finally:
        await store.close()


async def test_a_frozen_redis_times_every_caller_out_then_serves_again(
    own_redis_server: RedisServer,
) -> None:
    store = await open_store(own_redis_server.url)
    try:
        for i in range(5):
            await store.create(f"cold{i}", f"v{i}", listed=False)
        own_redis_server.pause()
        try:
            results = await asyncio.wait_for(
                asyncio.gather(*(store.load(f"cold{i}") for i in range(5)), return_exceptions=True),
                BOUND,
            )
        finally:
            own_redis_server.resume()
        for result in results:
            assert isinstance(result, RoomError), result
            assert result.code is ErrorCode.UNAVAILABLE
        # The callers' deadline may come before the batch's own (its retry reconnects to
        # the frozen server): once the batch has ended, the connection's timeout is intact.
        pipeline = pipeline_of(store)
        await eventually(lambda: pipeline._runner is None, "the batch ended", timeout=BOUND)
        assert pipeline._connection.socket_timeout == FAST.socket_timeout
        # Whatever the frozen batch left on the wire never answers a later call.
        assert await asyncio.gather(*(store.load(f"cold{i}") for i in range(5))) == [
            StoredRoom(0, f"v{i}") for i in range(5)
        ]
        assert await store.commit("cold0", 0, "w", event(1), listed=False)
    finally:
        await store.close()


async def test_presence_index_writes_share_round_trips(own_redis_server: RedisServer) -> None:
    client = make_client(own_redis_server.url, FAST)
    registry = RedisRegistry(client, prefix=unique_prefix())
    try:
        await registry.open()
        await registry.register("w1", 60.0, holder="here")
        pipeline = registry._calls
        assert isinstance(pipeline, AutoPipeline)
        rooms = [f"idx{i:02d}" for i in range(20)]
        assert await registry.add_room("w1", rooms[0])  # alone: Redis learns the script
        before = pipeline.batches
        assert await asyncio.gather(*(registry.add_room("w1", r) for r in rooms[1:])) == [True] * 19
        assert pipeline.batches - before == 1
        assert sorted(await registry.rooms("w1", 100)) == rooms
        await asyncio.gather(*(registry.remove_room("w1", r) for r in rooms[:15]))
        assert pipeline.batches - before == 2
        assert sorted(await registry.rooms("w1", 100)) == rooms[15:]
    finally:
        await registry.close()


async def test_a_connection_closed_while_idle_is_replaced_before_the_next_batch(
    own_redis_server: RedisServer,
) -> None:
    """Redis closes the kept connection between two batches (a restart, an idle timeout, a
    CLIENT KILL): the wire saw it, so the next batch goes on a new connection at once,
    with no failed attempt (one batch sent)."""
    store = await open_store(own_redis_server.url)
    try:
        await store.create("idle0", "v0", listed=False)
        pipeline = pipeline_of(store)
        wire = pipeline._wire
        assert wire is not None
        own_redis_server.client().client_kill_filter(_type="normal", skipme=True)
        await asyncio.wait_for(wire.closed, BOUND)
        sent = pipeline.batches
        assert await store.load("idle0") == StoredRoom(0, "v0")
        assert pipeline.batches == sent + 1
        assert pipeline._wire is not wire
    finally:
        await store.close()


async def test_the_kept_connection_speaks_resp2_and_goes_back_to_the_pool_as_it_came(
    own_redis_server: RedisServer,
) -> None:
    client = make_client(own_redis_server.url, FAST)
    pipeline = AutoPipeline(client)
    try:
        info = await pipeline.call("CLIENT", "INFO")
        assert "resp=2" in info.split()
        connection = pipeline._connection
        await pipeline.aclose()
        assert connection.protocol == 3 and not connection.is_connected
        # the pool hands it out again, reconnected as its own (RESP3, as the client was made)
        info = await client.execute_command("CLIENT", "INFO")  # type: ignore[no-untyped-call]
        assert "resp=3" in info.split()
    finally:
        await pipeline.aclose()
        await client.aclose()
