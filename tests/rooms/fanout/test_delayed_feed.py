"""A delayed spectator's listener (rooms.fanout.delayed) on a real service over the memory
store: a move shows once its delay is up by the wall clock even when that clock runs behind
the loop's (an event's timer then fires a hair early), and never before; a timer whose change
was shown already sends nothing."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

from core import MoveRequest, Rules
from rooms import Role, RoomService
from rooms.backends import MemoryStore
from rooms.fanout.delayed import DelayedFeed
from rooms.room import Join, PlayMove
from rooms.room.config import RoomSettings

DELAY = 0.3
WAIT = 10.0  # a bound against hangs, never a measurement


class DriftingClock:
    """A wall clock running at ``rate`` of the loop's monotonic clock."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.start = asyncio.get_running_loop().time()

    def __call__(self) -> float:
        return 1_000_000.0 + (asyncio.get_running_loop().time() - self.start) * self.rate


async def played(clock: DriftingClock) -> tuple[RoomService, str, int, float]:
    """A delayed room with both seats taken and X's first move played: the service, the
    room id, the move's version and its time by ``clock``."""
    service = RoomService(MemoryStore(), clock=clock)
    room = await service.create(
        Rules(), public=False, settings=replace(RoomSettings(), watch_delay=DELAY)
    )
    for conn in ("c0", "c1"):
        await service.execute(room.room_id, Join(conn, Role.PLAYER, conn))
    current = await service.current(room.room_id)
    x = "c0" if current.seat_of("c0").mark == "X" else "c1"  # type: ignore[union-attr]
    executed = await service.execute(
        room.room_id, PlayMove(x, MoveRequest(row=1, col=1), current.version, "m1")
    )
    return service, room.room_id, executed.room.version, executed.room.move_times[-1]


async def shown_plies(sent: list[str], ply: int) -> list[dict[str, object]]:
    async def until() -> None:
        while not any(json.loads(text)["state"]["ply"] == ply for text in sent):
            await asyncio.sleep(0.01)

    await asyncio.wait_for(until(), WAIT)
    return [json.loads(text)["state"] for text in sent]


async def test_a_move_shows_after_its_delay_even_when_the_wall_clock_runs_behind() -> None:
    clock = DriftingClock(rate=0.98)  # 2 % behind: the event's own timer fires too early
    service, room_id, version, at = await played(clock)
    sent: list[str] = []
    feed = DelayedFeed(room_id, service, sent.append, DELAY, clock=clock)
    try:
        welcome = feed.view(await service.current(room_id))
        assert welcome["ply"] == 0 and welcome["version"] == version
        feed.deliver(version, "{}")  # the move's event, as the hub hands it over
        states = await shown_plies(sent, 1)
        shown = next(state for state in states if state["ply"] == 1)
        assert isinstance(shown["now"], float) and shown["now"] - at >= DELAY
        assert all(state["version"] == version for state in states)
        assert len(states) == 1  # a timer that fired early sent nothing
    finally:
        await feed.closed()


async def test_a_timer_whose_change_was_shown_already_sends_nothing() -> None:
    clock = DriftingClock(rate=1.0)
    service, room_id, version, _ = await played(clock)
    sent: list[str] = []
    feed = DelayedFeed(room_id, service, sent.append, DELAY, clock=clock)
    try:
        feed.view(await service.current(room_id))  # arms a timer for the move
        feed.deliver(version, "{}")  # and so does its event
        await shown_plies(sent, 1)
        await asyncio.sleep(DELAY)  # every timer has fired
        assert len(sent) == 1
        await feed.send_state("s")  # a sync is answered whatever was sent
        assert len(sent) == 2 and json.loads(sent[1])["ref"] == "s"
    finally:
        await feed.closed()
