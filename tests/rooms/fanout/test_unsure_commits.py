"""A commit whose answer was lost (rooms.fanout.unsure), on a real Redis frozen with SIGSTOP
past the store's timeout: the move lands when Redis wakes, the mover's retry is answered as a
duplicate (which commits nothing), and the opponent's connection on the same worker still gets
the move, from the store. Before, it never did: the room held only this worker's connections,
so nothing was published, and the commit's own delivery never ran."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from core import MoveRequest, Rules
from rooms import ErrorCode, Feed, Hub, Role, RoomError, RoomService
from rooms.backends import MemoryStore
from rooms.backends.redis.connect import RedisOptions
from rooms.fanout.unsure import UnsureCommits
from rooms.room import Join, PlayMove
from rooms.room.commands import MoveReply
from tests.support.backends import BackendMaker, Pair
from tests.support.redis_server import RedisServer

A = "aaaaaaaaaaaa"
TIMEOUT = 0.3
"""The store's timeout here: Redis stays frozen longer than that."""
WAIT = 10.0  # a bound against hangs, never a measurement


X = f"{A}.0000000000000001"


async def game_on_one_worker(pair: Pair) -> tuple[RoomService, Hub, str, int, list[int]]:
    """A room whose two players are both on this worker (``A``), X's connection ``X``: the
    service, its hub (the local fan-out), the room id, its version once both joined, and
    the versions O's connection is sent, through a real ``Feed``."""
    service = RoomService(pair.store)
    hub = Hub(pair.bus, service.cache)
    service.fan_out_locally(hub, worker=lambda: A)
    room = await service.create(Rules(), public=False)
    await service.execute(room.room_id, Join(X, Role.PLAYER, "Ada"))
    joined = await service.execute(room.room_id, Join(f"{A}.0000000000000002", Role.PLAYER, "Bob"))
    heard: list[int] = []
    feed = Feed(room.room_id, service, lambda text: heard.append(json.loads(text)["version"]))
    await hub.attach(room.room_id, feed)
    feed.start(joined.room.version)
    return service, hub, room.room_id, joined.room.version, heard


async def heard_once(heard: list[int], version: int) -> None:
    """Until O's connection was sent ``version``; then it must have been sent that alone."""
    async with asyncio.timeout(WAIT):
        while version not in heard:
            await asyncio.sleep(0.02)
    assert heard == [version]


async def test_a_move_whose_answer_was_lost_still_reaches_the_opponent_on_this_worker(
    maker: BackendMaker, redis_server: RedisServer
) -> None:
    pair = await maker.make(options=RedisOptions(timeout=TIMEOUT, retries=0))
    service, hub, room_id, version, heard = await game_on_one_worker(pair)
    move = PlayMove(X, MoveRequest(col=1, row=1), version, "m0")
    try:
        redis_server.pause()
        try:
            await service.execute(room_id, move)
        except RoomError as exc:
            assert exc.code is ErrorCode.UNAVAILABLE
        else:
            raise AssertionError("a frozen Redis answered the commit")
    finally:
        redis_server.resume()
    # the mover's retry, as a client sends it: the same move_id, the same version
    for _ in range(100):
        try:
            retried = await service.execute(room_id, move)
            break
        except RoomError as exc:
            assert exc.code is ErrorCode.UNAVAILABLE
            await asyncio.sleep(0.05)
    assert retried.event is None
    assert isinstance(retried.reply, MoveReply) and retried.reply.duplicate
    await heard_once(heard, version + 1)
    await service.close()
    await hub.close()


async def test_each_lost_commit_is_checked_even_one_noted_as_a_check_ends() -> None:
    """On the memory store (which never loses an answer, so the notes are made by hand):
    the events past the oldest version noted are handed over once the store answers, and a
    note made just as a check ended gets a check of its own."""
    service = RoomService(MemoryStore())
    room = await service.create(Rules(), public=False)
    for conn in (f"{A}.0000000000000001", f"{A}.0000000000000002"):
        await service.execute(room.room_id, Join(conn, Role.PLAYER, conn))
    handed: list[int] = []
    unsure = UnsureCommits(
        service.store, lambda room_id, version, text: handed.append(version), first_pause=0
    )
    unsure.note(room.room_id, 1)
    unsure.note(room.room_id, 0)  # an older one meanwhile: the check starts from it
    async with asyncio.timeout(WAIT):
        while handed != [1, 2]:
            await asyncio.sleep(0)
        unsure.note(room.room_id, 1)  # as the first check ends
        while handed != [1, 2, 2]:
            await asyncio.sleep(0)
    await unsure.close()


async def test_a_commit_the_driver_sent_twice_still_reaches_the_opponent_on_this_worker(
    maker: BackendMaker,
) -> None:
    """redis-py's Cluster client sends a command again after a connection error: a commit
    that ran, its answer lost with the connection (a primary killed, a failover), comes back
    as a refusal of the same commit, the room already at its version. The service then
    answers the mover's move as a duplicate and commits nothing; the opponent's connection
    on this worker (the room published nothing: it held only this worker's connections)
    must still get the move. Here the resend is made by hand on a real Redis."""
    pair = await maker.make()
    service, hub, room_id, version, heard = await game_on_one_worker(pair)
    swap = pair.store.swap

    async def landed_then_sent_again(*args: Any, **kwargs: Any) -> Any:
        await swap(*args, **kwargs)  # it ran; its answer was lost with the connection
        return await swap(*args, **kwargs)  # the driver's resend, refused

    pair.store.swap = landed_then_sent_again  # type: ignore[method-assign]
    moved = await service.execute(room_id, PlayMove(X, MoveRequest(col=1, row=1), version, "m0"))
    assert moved.event is None  # answered as a duplicate: this call committed nothing
    assert isinstance(moved.reply, MoveReply) and moved.reply.duplicate
    assert service.conflicts == 1
    await heard_once(heard, version + 1)
    await service.close()
    await hub.close()
