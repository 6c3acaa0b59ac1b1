"""The lifecycle on every backend, with several services ("workers") sharing one store:
quick play under simultaneous requests, a bot's move computed twice landing once, a flag
ticked by two workers committed once."""

from __future__ import annotations

import asyncio
from collections import Counter

from core import Move, MoveRequest, Rules
from core.ai import BotJob, run_bot_job
from rooms import (
    Backend,
    Role,
    RoomService,
    RoomSettings,
    Status,
    TimeControl,
    Watch,
    quick_play,
)
from rooms.room import Join, PlayMove, Tick
from tests.support.waiting import eventually


async def test_simultaneous_quick_play_requests_pair_up(backend: Backend) -> None:
    workers = [RoomService(backend.store) for _ in range(2)]
    queue = backend.queue
    rules = Rules(rows=5, cols=5, k=4)  # rules of their own: no other test's rooms queued
    settings = RoomSettings(abandon_grace=60.0)
    for round_ in range(15):
        first, second = await asyncio.gather(
            quick_play(workers[0], queue, rules, settings, name=f"a{round_}"),
            quick_play(workers[1], queue, rules, settings, name=f"b{round_}"),
        )
        assert first.room.room_id == second.room.room_id, "two half-empty rooms"
        assert {first.reply.mark, second.reply.mark} == {"X", "O"}, "one seat twice"
        assert first.matched != second.matched
        room = await workers[0].load(first.room.room_id)
        assert room.status is Status.PLAYING
        assert sorted(s.name for s in room.seats) == sorted([f"a{round_}", f"b{round_}"])
    assert await queue.pop("nothing-queued-here") is None


async def test_many_requests_at_once_leave_at_most_one_room_half_empty(
    backend: Backend,
) -> None:
    workers = [RoomService(backend.store) for _ in range(3)]
    queue = backend.queue
    rules = Rules(rows=4, cols=6, k=3)
    settings = RoomSettings()
    results = await asyncio.gather(
        *(quick_play(workers[i % 3], queue, rules, settings, name=f"p{i}") for i in range(9))
    )
    per_room = Counter(r.room.room_id for r in results)
    seats = Counter((r.room.room_id, r.reply.mark) for r in results)
    assert max(seats.values()) == 1, "a seat given twice"
    assert sorted(per_room.values()) == [1, 2, 2, 2, 2]
    lonely = next(room_id for room_id, count in per_room.items() if count == 1)
    assert (await workers[0].load(lonely)).status is Status.WAITING
    matched = await quick_play(workers[0], queue, rules, settings, name="late")
    assert matched.matched and matched.room.room_id == lonely  # the oldest waiting room


async def test_a_deserted_waiting_room_is_skipped_and_retired(backend: Backend) -> None:
    clock = [1000.0]
    service = RoomService(backend.store, clock=lambda: clock[0])
    queue = backend.queue
    rules = Rules(rows=3, cols=5, k=3)
    settings = RoomSettings(abandon_grace=10.0)
    ghost = await quick_play(service, queue, rules, settings, name="ghost")
    clock[0] += 11.0  # the first player never connected
    fresh = await quick_play(service, queue, rules, settings, name="fresh")
    assert not fresh.matched and fresh.room.room_id != ghost.room.room_id
    retired = await service.load(ghost.room.room_id)
    assert retired.status is Status.FINISHED and not retired.listed


async def test_two_workers_computing_one_bot_move_apply_it_once(backend: Backend) -> None:
    calls: list[int] = []
    gate = asyncio.Event()

    async def think(job: BotJob) -> Move:
        calls.append(1)
        if len(calls) < 2:
            await gate.wait()  # hold the first until the second also computed
        else:
            gate.set()
        return await asyncio.to_thread(run_bot_job, job)

    services = [RoomService(backend.store) for _ in range(2)]
    watches = [Watch(service, think=think) for service in services]
    try:
        room = await services[0].create(
            Rules(), public=False, bot=("perfect", "X"), settings=RoomSettings(bot_budget=1.0)
        )
        # the human's join starts the game with the bot to move: both workers notice it
        await services[0].execute(room.room_id, Join("h", Role.PLAYER))
        loaded = await services[1].load(room.room_id)
        watches[1].observe(loaded, True)

        async def settled() -> bool:
            now = await services[0].load(room.room_id)
            return now.game.ply == 1 and len(calls) == 2 and not any(w._thinking for w in watches)

        await eventually(settled, "the bot's move committed and both searches over")
        final = await services[0].load(room.room_id)
        assert final.game.ply == 1 and len(calls) == 2
        assert sum(w.bot_moves for w in watches) == 1
        texts = await backend.store.events_since(room.room_id, final.version - 1)
        assert texts is not None and '"mark":"X"' in texts[-1]
    finally:
        for watch in watches:
            await watch.close()


async def test_a_flag_ticked_by_two_workers_is_committed_once(backend: Backend) -> None:
    clock = [1000.0]
    services = [RoomService(backend.store, clock=lambda: clock[0]) for _ in range(2)]
    tc = TimeControl(initial=5.0, first_move=3.0)
    room = await services[0].create(Rules(), public=False, settings=RoomSettings(time_control=tc))
    await services[0].execute(room.room_id, Join("a", Role.PLAYER))
    await services[1].execute(room.room_id, Join("b", Role.PLAYER))
    clock[0] += 3.5  # X never made its first move
    results = await asyncio.gather(*(s.execute(room.room_id, Tick()) for s in services))
    assert sum(r.event is not None for r in results) == 1
    final = await services[0].load(room.room_id)
    assert final.game.outcome is not None and final.game.outcome.reason.value == "aborted"


async def test_a_bot_move_owed_by_a_dead_worker_is_picked_up_by_another(
    backend: Backend,
) -> None:
    clock = [1000.0]
    never = asyncio.Event()

    async def hang(job: BotJob) -> Move:  # the worker that owes the move dies thinking
        await never.wait()
        raise AssertionError("unreachable")

    a, b = (RoomService(backend.store, clock=lambda: clock[0]) for _ in range(2))
    dying = Watch(a, think=hang, clock=lambda: clock[0])
    alive = Watch(b, clock=lambda: clock[0])
    try:
        room = await a.create(
            Rules(),
            public=False,
            bot=("easy", "O"),
            settings=RoomSettings(bot_budget=0.5, bot_grace=1.0),
        )
        joined = await a.execute(room.room_id, Join("h", Role.PLAYER))
        moved = await a.execute(
            room.room_id, PlayMove("h", MoveRequest(col=1, row=1), joined.room.version, "m1")
        )
        assert moved.event is not None and moved.event.due == 1001.5
        await dying.close()  # the worker is gone, its search with it
        # another worker hears the event's due and wakes when it passes
        alive.noted(room.room_id, moved.event.due)
        assert alive.pending(room.room_id) == 1001.5
        clock[0] = 1002.0
        alive.noted(room.room_id, moved.event.due)  # now past due: it acts at once

        async def bot_moved() -> bool:
            return (await a.load(room.room_id)).game.ply == 2

        await eventually(bot_moved, "the bot's move, played by the worker still alive")
        final = await a.load(room.room_id)
        assert final.game.ply == 2 and alive.bot_moves == 1 and final.game.turn == "X"
    finally:
        await alive.close()
        await dying.close()
