"""Quick play with a join key, on every backend and across workers sharing one store: a repeat
of the request gets the same room and seat with a fresh token, never a second seat; another key
gets another seat; a key whose seat its token resumed is spent."""

from __future__ import annotations

import asyncio
import itertools
import secrets

import pytest

from core import Rules
from rooms import Backend, ErrorCode, Role, RoomError, RoomService, RoomSettings, quick_play
from rooms.quickplay import PENDING, REQUEST_TTL, Matched
from rooms.room import Join, JoinReply
from rooms.room.seats import hash_token
from tests.support.handled import reply_of


def key() -> str:
    return secrets.token_urlsafe(16)


_FRESH = itertools.count()


def unique_rules() -> Rules:
    """Rules no other test of this process queues rooms under, so each test has a queue of
    its own: the Redis a process's tests share keeps the rooms earlier tests left waiting
    (drawn at random, two tests' rules sometimes met, and a request sat in the other's)."""
    drawn = next(_FRESH)
    return Rules(rows=3 + drawn % 8, cols=11 + drawn // 8, k=3)


async def token_works(service: RoomService, matched: Matched, token: str | None) -> bool:
    assert token is not None
    try:
        executed = await service.execute(
            matched.room.room_id, Join(f"c{secrets.token_hex(4)}", Role.PLAYER, token=token)
        )
    except RoomError as exc:
        assert exc.code is ErrorCode.BAD_TOKEN
        return False
    return reply_of(executed, JoinReply).mark == matched.reply.mark


async def test_a_repeat_on_another_worker_gets_the_same_seat(backend: Backend) -> None:
    workers = [RoomService(backend.store) for _ in range(2)]
    rules, settings, mine = unique_rules(), RoomSettings(), key()
    first = await quick_play(workers[0], backend.queue, rules, settings, name="Ada", join_key=mine)
    again = await quick_play(workers[1], backend.queue, rules, settings, name="Ada", join_key=mine)
    assert (again.room.room_id, again.reply.mark) == (first.room.room_id, first.reply.mark)
    assert again.matched is first.matched is False
    assert again.reply.token not in (None, first.reply.token)
    room = await workers[0].load(first.room.room_id)
    assert len(room.seats) == 1
    assert not await token_works(workers[0], first, first.reply.token), "the lost token works"
    assert await token_works(workers[1], again, again.reply.token)


async def test_another_key_gets_another_seat_and_its_repeat_too(backend: Backend) -> None:
    service = RoomService(backend.store)
    rules, settings = unique_rules(), RoomSettings()
    mine, theirs = key(), key()
    first = await quick_play(service, backend.queue, rules, settings, join_key=mine)
    other = await quick_play(service, backend.queue, rules, settings, join_key=theirs)
    assert other.room.room_id == first.room.room_id and other.matched
    assert {first.reply.mark, other.reply.mark} == {"X", "O"}
    repeat = await quick_play(service, backend.queue, rules, settings, join_key=theirs)
    assert (repeat.room.room_id, repeat.reply.mark, repeat.matched) == (
        other.room.room_id,
        other.reply.mark,
        True,
    )
    third = await quick_play(service, backend.queue, rules, settings, join_key=key())
    assert third.room.room_id != first.room.room_id and not third.matched


async def test_simultaneous_repeats_never_take_two_seats(backend: Backend) -> None:
    workers = [RoomService(backend.store) for _ in range(3)]
    rules, settings, mine = unique_rules(), RoomSettings(), key()
    results = await asyncio.gather(
        *(quick_play(w, backend.queue, rules, settings, join_key=mine) for w in workers),
        return_exceptions=True,
    )
    seated = [r for r in results if isinstance(r, Matched)]
    busy = [r for r in results if isinstance(r, RoomError)]
    assert seated and len(seated) + len(busy) == 3
    assert all(error.code is ErrorCode.BUSY for error in busy)
    assert len({(m.room.room_id, m.reply.mark) for m in seated}) == 1
    after = await quick_play(workers[0], backend.queue, rules, settings, join_key=mine)
    assert (after.room.room_id, after.reply.mark) == (seated[0].room.room_id, seated[0].reply.mark)
    assert len((await workers[0].load(after.room.room_id)).seats) == 1


async def test_a_request_that_died_after_its_seat_is_found_at_once(backend: Backend) -> None:
    service = RoomService(backend.store)
    rules, settings, mine = unique_rules(), RoomSettings(), key()
    first = await quick_play(service, backend.queue, rules, settings, join_key=mine)
    # the record as a worker killed between the seat's commit and its answer leaves it:
    # pending (format "?<until>|<room id>", rooms.quickplay), naming the room
    dying = f"?{service.now() + PENDING!r}|{first.room.room_id}"
    await backend.queue.record_request(hash_token(mine), dying, REQUEST_TTL)
    again = await quick_play(service, backend.queue, rules, settings, join_key=mine)
    assert (again.room.room_id, again.reply.mark) == (first.room.room_id, first.reply.mark)


async def test_a_request_under_way_makes_a_repeat_busy_until_it_counts_as_dead(
    backend: Backend,
) -> None:
    clock = [5000.0]
    service = RoomService(backend.store, clock=lambda: clock[0])
    rules, settings, mine = unique_rules(), RoomSettings(), key()
    # a request that has claimed the key and not yet chosen a room (format: rooms.quickplay)
    pending = f"?{clock[0] + PENDING!r}|"
    assert await backend.queue.claim_request(hash_token(mine), pending, REQUEST_TTL) is None
    with pytest.raises(RoomError) as caught:
        await quick_play(service, backend.queue, rules, settings, join_key=mine)
    assert caught.value.code is ErrorCode.BUSY and caught.value.retry_after == PENDING
    clock[0] += PENDING + 1  # it never came back
    fresh = await quick_play(service, backend.queue, rules, settings, join_key=mine)
    again = await quick_play(service, backend.queue, rules, settings, join_key=mine)
    assert (again.room.room_id, again.reply.mark) == (fresh.room.room_id, fresh.reply.mark)


async def test_a_key_whose_seat_its_token_resumed_is_spent(backend: Backend) -> None:
    service = RoomService(backend.store)
    rules, settings, mine = unique_rules(), RoomSettings(), key()
    first = await quick_play(service, backend.queue, rules, settings, join_key=mine)
    assert await token_works(service, first, first.reply.token)
    later = await quick_play(service, backend.queue, rules, settings, join_key=mine)
    assert (later.room.room_id, later.reply.mark) != (first.room.room_id, first.reply.mark)
    assert await token_works(service, first, first.reply.token), "the spent key took the seat"


async def test_request_records_claim_and_replace(backend: Backend) -> None:
    queue, request = backend.queue, hash_token(key())
    assert await queue.claim_request(request, "a", 60.0) is None
    assert await queue.claim_request(request, "b", 60.0) == "a"
    assert await queue.claim_request(request, "b", 60.0, replacing="x") == "a"
    assert await queue.claim_request(request, "b", 60.0, replacing="a") is None
    await queue.record_request(request, "c", 60.0)
    assert await queue.claim_request(request, "d", 60.0) == "c"
    short = hash_token(key())
    await queue.record_request(short, "gone", 0.05)
    await asyncio.sleep(0.3)  # expired: a claim finds nothing (not a timing assertion)
    assert await queue.claim_request(short, "new", 60.0) is None
