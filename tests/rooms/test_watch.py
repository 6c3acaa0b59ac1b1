"""The watch's timers: one per room at its latest ``due``, cleared when nothing is due,
and backing off (never spinning) while a room stays past due."""

from __future__ import annotations

import asyncio

from rooms import RoomService, Watch
from rooms.backends import MemoryStore


async def test_one_timer_per_room_following_the_latest_due() -> None:
    clock = [1000.0]
    watch = Watch(RoomService(MemoryStore()), clock=lambda: clock[0])
    try:
        watch.noted("r1", 1010.0)
        assert watch.pending("r1") == 1010.0
        watch.noted("r1", 1005.0)  # a newer event moved it
        assert watch.pending("r1") == 1005.0
        watch.noted("r1", None)  # nothing due any more
        assert watch.pending("r1") is None
    finally:
        await watch.close()


async def test_a_room_staying_past_due_is_looked_at_again_later_and_later() -> None:
    clock = [1000.0]
    watch = Watch(RoomService(MemoryStore()), clock=lambda: clock[0], retry=1.0)
    loop = asyncio.get_running_loop()
    try:
        delays = []
        for _ in range(4):
            watch.noted("r1", 990.0)
            handle = watch._timers["r1"][1]
            delays.append(round(handle.when() - loop.time()))
        assert delays == [0, 1, 2, 4]
        watch.noted("r1", 1020.0)  # the room moved on: back to its own time
        watch.noted("r1", 990.0)
        assert round(watch._timers["r1"][1].when() - loop.time()) == 0
    finally:
        await watch.close()
