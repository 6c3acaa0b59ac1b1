"""Spectators who arrive or leave together are recorded in one commit and one
``spectators`` event (rooms.common.gathering, rooms.presence.rooms; ``JoinSpectators`` and
``LeaveSpectators`` in the room): a crowd arriving or leaving at once is a few commits, not
one per spectator each sent to everyone still watching. Each of them still gets its own
answer; one who goes away before its group is taken is left out; one who goes away while
it commits, or whose commit's answer was lost, has its departure recorded; under a lease
that is gone nobody is recorded; departures that cannot be recorded now are retried. On
the memory store and on one real Redis (where the worker's index rides on the commit)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from core import Rules
from rooms import ErrorCode, LeaseLost, Presence, Role, RoomError, RoomService
from rooms.backends import MemoryRegistry, MemoryStore
from rooms.backends.redis.presence import RedisRegistry
from rooms.common.gathering import Gathering
from rooms.room import Join, JoinReply
from rooms.room.commands import JoinSpectators, LeaveReply, LeaveSpectators
from rooms.room.events import Spectators
from tests.rooms.backends.redis.test_presence_index import LostAnswers
from tests.rooms.room.room_helpers import new_room
from tests.support.backends import registry_for
from tests.support.waiting import eventually

WAIT = 20.0  # a bound against hangs, never a measurement


# -- the room ------------------------------------------------------------------------------


def test_spectators_joining_together_are_one_change_and_one_event() -> None:
    room = new_room()
    room.handle(Join("w.s0", Role.SPECTATOR), now=1.0)
    before = room.version
    handled = room.handle(JoinSpectators(("w.s1", "w.s2", "w.s3")), now=2.0)
    assert room.version == before + 1
    assert handled.event == Spectators(version=before + 1, count=4, due=None)
    assert handled.reply == JoinReply(Role.SPECTATOR, None, None)
    assert room.spectators == ["w.s0", "w.s1", "w.s2", "w.s3"]


def test_one_spectator_alone_is_the_same_change_as_before() -> None:
    room = new_room()
    handled = room.handle(Join("w.s1", Role.SPECTATOR), now=1.0)
    assert handled.event == Spectators(version=1, count=1, due=None)
    assert room.spectators == ["w.s1"]


@pytest.mark.parametrize(
    ("conns", "code"),
    [
        (("w.s1", "w.s1"), ErrorCode.BAD_MESSAGE),
        ((), ErrorCode.BAD_MESSAGE),
        (("w.s9", "w.s0"), ErrorCode.ALREADY_JOINED),
        (("w.s9", "w.p"), ErrorCode.ALREADY_JOINED),
    ],
)
def test_a_group_with_a_connection_already_in_changes_nothing(
    conns: tuple[str, ...], code: ErrorCode
) -> None:
    room = new_room()
    room.handle(Join("w.p", Role.PLAYER), now=1.0)
    room.handle(Join("w.s0", Role.SPECTATOR), now=1.0)
    before = room.version
    with pytest.raises(RoomError) as caught:
        room.handle(JoinSpectators(conns), now=2.0)
    assert caught.value.code is code
    assert room.version == before and room.spectators == ["w.s0"]


def test_spectators_leaving_together_are_one_change_and_one_event() -> None:
    room = new_room()
    room.handle(JoinSpectators(("w.s1", "w.s2", "w.s3")), now=1.0)
    before = room.version
    handled = room.handle(LeaveSpectators(("w.s1", "w.s3", "w.gone")), now=2.0)
    assert handled.event == Spectators(version=before + 1, count=1, due=None)
    assert handled.reply == LeaveReply(True) and room.spectators == ["w.s2"]
    again = room.handle(LeaveSpectators(("w.s1", "w.s3")), now=3.0)
    assert again.event is None and again.reply == LeaveReply(False)
    assert room.version == before + 1


# -- the group commit ------------------------------------------------------------------------


async def test_a_gathering_commits_what_arrives_during_a_commit_next_and_together() -> None:
    gate = asyncio.Event()
    commits: list[list[int]] = []

    async def commit(key: str, items: list[int]) -> int:
        commits.append(list(items))
        await gate.wait()
        return sum(items)

    gathering: Gathering[str, int, int] = Gathering(commit, lambda key: 0.0)
    first = gathering.add("a", 1)
    await eventually(lambda: commits == [[1]], "a quiet key's item committed at once, alone")
    second = gathering.add("a", 2)
    assert gathering.add("a", 3) is second
    other = gathering.add("b", 10)  # another key does not wait for "a"
    withdrawn = gathering.add("a", 4)
    assert withdrawn is second and gathering.withdraw("a", second, 4)
    await eventually(lambda: commits == [[1], [10]], "the other key committed without waiting")
    gate.set()
    assert await asyncio.wait_for(asyncio.shield(second.done), WAIT) == 5
    assert first.done.result() == 1 and other.done.result() == 10
    assert commits == [[1], [10], [2, 3]]
    assert not gathering.withdraw("a", second, 2)  # committed: too late to withdraw
    await gathering.close()


async def test_a_gathering_waits_its_window_and_hands_every_member_the_error() -> None:
    async def commit(key: str, items: list[int]) -> int:
        raise RoomError(ErrorCode.UNAVAILABLE, f"{len(items)} items refused")

    gathering: Gathering[str, int, int] = Gathering(commit, lambda key: 0.05)
    group = gathering.add("a", 1)
    await asyncio.sleep(0.01)  # the test: time passes, within the group's 0.05 s window
    assert gathering.add("a", 2) is group  # still gathering within its window
    for _ in range(2):
        with pytest.raises(RoomError, match="2 items refused"):
            await asyncio.wait_for(asyncio.shield(group.done), WAIT)
    await gathering.close()


async def test_a_group_cancelled_before_its_commit_is_known_not_to_have_landed() -> None:
    gate = asyncio.Event()
    commits: list[list[int]] = []

    async def commit(key: str, items: list[int]) -> int:
        commits.append(list(items))
        await gate.wait()
        return 0

    waiting: Gathering[str, int, int] = Gathering(commit, lambda key: 5.0)
    in_window = waiting.add("a", 1)
    await eventually(lambda: waiting._turns.users("a") == 1, "the group waiting in its window")
    await waiting.close()  # cancelled in its window: nothing committed
    assert in_window.done.cancelled() and commits == []
    assert waiting.withdraw("a", in_window, 1)
    committing: Gathering[str, int, int] = Gathering(commit, lambda key: 0.0)
    under_way = committing.add("a", 2)
    await eventually(lambda: commits == [[2]], "its commit under way")
    await committing.close()  # cancelled while committing: it may have landed
    assert under_way.done.cancelled() and commits == [[2]]
    assert not committing.withdraw("a", under_way, 2)


# -- a worker's presence -------------------------------------------------------------------


class Gated(MemoryStore):
    """A memory store whose commits wait while ``gate`` is closed; counts commits."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()
        self.commits = 0
        self.at_gate = 0  # commits waiting at the gate now

    async def swap(self, *args: Any, **kwargs: Any) -> Any:
        self.at_gate += 1
        try:
            await self.gate.wait()
        finally:
            self.at_gate -= 1
        self.commits += 1
        return await super().swap(*args, **kwargs)


def gathered(presence: Presence) -> int:
    """Spectators in the worker's forming groups: arrived, waiting for the next commit
    (read from the worker's private gathering: nothing public shows it)."""
    forming = presence._rooms._arrivals._forming
    return sum(len(group.items) for group in forming.values())


@pytest.fixture
async def memory_worker() -> AsyncIterator[tuple[Presence, RoomService, Gated]]:
    store = Gated()
    service = RoomService(store)
    presence = Presence(MemoryRegistry(), service, ttl=5.0)
    await presence.start()
    yield presence, service, store
    await presence.close()


async def _watched_room(presence: Presence, service: RoomService) -> tuple[str, Callable[[], Any]]:
    """A new room, and a call that joins one more of the worker's spectators to it."""
    room_id = (await service.create(Rules(), public=False)).room_id

    def join() -> Any:
        conn = presence.connection_id()
        return presence.join(room_id, Join(conn, Role.SPECTATOR), lambda: None)

    return room_id, join


async def test_a_crowd_arriving_at_once_is_one_commit(
    memory_worker: tuple[Presence, RoomService, Gated],
) -> None:
    presence, service, store = memory_worker
    room_id, join = await _watched_room(presence, service)
    answers = await asyncio.wait_for(asyncio.gather(*(join() for _ in range(50))), WAIT)
    assert store.commits == 1
    assert {answer.room.version for answer in answers} == {1}
    assert all(answer.reply == JoinReply(Role.SPECTATOR, None, None) for answer in answers)
    assert answers[0].event == Spectators(version=1, count=50, due=None)
    assert len((await service.load(room_id)).spectators) == 50


async def test_spectators_arriving_during_a_commit_form_the_next_one(
    memory_worker: tuple[Presence, RoomService, Gated],
) -> None:
    presence, service, store = memory_worker
    room_id, join = await _watched_room(presence, service)
    store.gate.clear()
    first = asyncio.ensure_future(join())  # a quiet room: committed at once, alone
    await eventually(lambda: store.at_gate == 1, "the first commit waiting at the gate")
    later = [asyncio.ensure_future(join()) for _ in range(30)]
    await eventually(lambda: gathered(presence) == 30, "30 queued behind the first commit")
    store.gate.set()
    answers = await asyncio.wait_for(asyncio.gather(first, *later), WAIT)
    assert store.commits == 2
    assert answers[0].event == Spectators(version=1, count=1, due=None)
    assert {answer.room.version for answer in answers[1:]} == {2}
    assert len((await service.load(room_id)).spectators) == 31


async def test_one_who_goes_before_the_commit_starts_is_left_out(
    memory_worker: tuple[Presence, RoomService, Gated],
) -> None:
    presence, service, store = memory_worker
    room_id, join = await _watched_room(presence, service)
    store.gate.clear()
    first = asyncio.ensure_future(join())
    await eventually(lambda: store.at_gate == 1, "the first commit waiting at the gate")
    staying = [asyncio.ensure_future(join()) for _ in range(3)]
    going = asyncio.ensure_future(join())
    await eventually(lambda: gathered(presence) == 4, "four queued behind the first commit")
    going.cancel()
    with pytest.raises(asyncio.CancelledError):
        await going
    store.gate.set()
    await asyncio.wait_for(asyncio.gather(first, *staying), WAIT)
    loaded = await service.load(room_id)
    assert len(loaded.spectators) == 4 and loaded.version == 2  # never in, never out
    assert presence.pending() == 0


async def test_one_who_goes_while_its_commit_is_under_way_is_recorded_leaving(
    memory_worker: tuple[Presence, RoomService, Gated],
) -> None:
    presence, service, store = memory_worker
    room_id, join = await _watched_room(presence, service)
    store.gate.clear()
    joiners = [asyncio.ensure_future(join()) for _ in range(3)]
    await eventually(lambda: store.at_gate == 1, "the three's commit waiting at the gate")
    joiners[1].cancel()
    # One turn of the loop: the cancel reaches the join while its commit still waits (its
    # step was scheduled before anything the gate wakes, so this orders, it does not guess).
    await asyncio.sleep(0)
    store.gate.set()
    results = await asyncio.wait_for(asyncio.gather(*joiners, return_exceptions=True), WAIT)
    assert isinstance(results[1], asyncio.CancelledError)
    loaded = await service.load(room_id)
    assert loaded.version == 2  # joined together, then the one who went left
    assert len(loaded.spectators) == 2 and presence.pending() == 0


async def test_a_crowd_leaving_at_once_is_one_commit(
    memory_worker: tuple[Presence, RoomService, Gated],
) -> None:
    presence, service, store = memory_worker
    room_id, join = await _watched_room(presence, service)
    await asyncio.wait_for(asyncio.gather(*(join() for _ in range(40))), WAIT)
    conns = (await service.load(room_id)).spectators
    commits = store.commits
    left = await asyncio.wait_for(
        asyncio.gather(*(presence.leave(room_id, conn, spectator=True) for conn in conns)), WAIT
    )
    assert left == [True] * 40
    assert store.commits - commits <= 2  # the first alone (or all), the rest together
    loaded = await service.load(room_id)
    assert loaded.spectators == [] and presence.pending() == 0


# -- one real Redis: the index rides on the commit -------------------------------------------


@pytest.fixture
async def redis_worker(
    redis_url: str,
) -> AsyncIterator[tuple[Presence, RoomService, RedisRegistry, LostAnswers]]:
    store = LostAnswers(redis_url, prefix="watchers")
    await store.open()
    registry = registry_for(f"{redis_url}?prefix=watchers")
    assert isinstance(registry, RedisRegistry)
    await registry.open()
    service = RoomService(store)
    presence = Presence(registry, service, ttl=5.0)
    await presence.start()
    yield presence, service, registry, store
    await presence.close()
    await registry.close()
    await store.close()


async def test_on_redis_a_crowd_is_one_commit_that_indexes_the_room(
    redis_worker: tuple[Presence, RoomService, RedisRegistry, LostAnswers],
) -> None:
    presence, service, registry, _ = redis_worker
    room_id, join = await _watched_room(presence, service)
    answers = await asyncio.wait_for(asyncio.gather(*(join() for _ in range(40))), WAIT)
    assert {answer.room.version for answer in answers} == {1}
    assert await registry.rooms(presence.worker, 10) == [room_id]
    conns = (await service.load(room_id)).spectators
    assert len(conns) == 40
    for conn in conns:  # the last departure unindexes
        assert await presence.leave(room_id, conn)
    assert await registry.rooms(presence.worker, 10) == []


async def test_on_redis_a_lost_answer_records_every_departure_of_the_group(
    redis_worker: tuple[Presence, RoomService, RedisRegistry, LostAnswers],
) -> None:
    presence, service, registry, store = redis_worker
    room_id, join = await _watched_room(presence, service)
    store.lose = 1
    results = await asyncio.wait_for(
        asyncio.gather(*(join() for _ in range(5)), return_exceptions=True), WAIT
    )
    assert all(
        isinstance(result, RoomError) and result.code is ErrorCode.UNAVAILABLE for result in results
    )
    loaded = await service.load(room_id)
    assert loaded.spectators == [] and loaded.version == 6  # landed, then five departures
    assert await registry.rooms(presence.worker, 10) == []
    assert presence.pending() == 0


async def test_on_redis_under_a_lease_that_is_gone_nobody_of_the_group_is_recorded(
    redis_worker: tuple[Presence, RoomService, RedisRegistry, LostAnswers],
) -> None:
    presence, service, registry, _ = redis_worker
    room_id, join = await _watched_room(presence, service)
    old = presence.worker
    await registry.release(old)  # gone in Redis; the heartbeat has not noticed yet
    results = await asyncio.wait_for(
        asyncio.gather(*(join() for _ in range(5)), return_exceptions=True), WAIT
    )
    assert all(isinstance(result, LeaseLost) for result in results)
    loaded = await service.load(room_id)
    assert loaded.version == 0 and loaded.spectators == []
    assert await registry.rooms(old, 10) == []
    assert presence.pending() == 0


async def test_on_redis_a_crowd_leaving_unindexes_the_room_and_retries_a_lost_answer(
    redis_worker: tuple[Presence, RoomService, RedisRegistry, LostAnswers],
) -> None:
    presence, service, registry, store = redis_worker
    room_id, join = await _watched_room(presence, service)
    await asyncio.wait_for(asyncio.gather(*(join() for _ in range(30))), WAIT)
    conns = (await service.load(room_id)).spectators
    store.lose = 1  # the departures' commit lands, but its answer is lost
    left = await asyncio.wait_for(
        asyncio.gather(*(presence.leave(room_id, conn, spectator=True) for conn in conns)), WAIT
    )
    assert not all(left) and presence.pending() == left.count(False)
    await presence.beat()  # the heartbeat retries them
    assert presence.pending() == 0
    assert (await service.load(room_id)).spectators == []
    assert await registry.rooms(presence.worker, 10) == []  # the last one unindexed it
