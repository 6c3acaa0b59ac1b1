"""A spectator's connection to a game watched with a delay: the room as it was, later.

In place of a ``Feed`` (which forwards events as they come), a delayed spectator's listener
answers each event of the room with a timer: ``delay`` seconds after the event reached this
worker it sends the room as it was ``delay`` seconds before (rooms.room.delayed), as a
``state``. So every route a spectator has to the room (the welcome, a ``sync``, the events)
shows the same delayed view, and an event never goes out early. Chat lines (the spectators'
own) go at once. Each view's ``version`` is the room's when it was taken, never lower than one
sent before, so the client takes each one in order.

The timers run on the loop's monotonic clock, the cutoff on the wall clock (the moves' times),
and the two drift apart: an event's timer may fire while its move is still a hair inside the
delay by the wall clock. So every view sent also arms a timer for the first change it still
holds back, which shows it for sure; a view that would repeat the last one unasked is not sent.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from rooms.common.tasks import cancel_all
from rooms.errors import RoomError
from rooms.protocol.messages import dumps, state_message
from rooms.room.delayed import delayed_snapshot, hidden_times
from rooms.room.room import Room
from rooms.service import RoomService

__all__ = ["DelayedFeed"]

log = logging.getLogger("tictactoe.rooms")

SLACK = 0.005
"""Seconds a timer for a held-back change waits past its due time: any drift of the clocks
below 0.25 % is covered at once (a larger one costs a timer more, never the view)."""


class DelayedFeed:
    def __init__(
        self,
        room_id: str,
        service: RoomService,
        send: Callable[[str], object],
        delay: float,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.room_id = room_id
        self.delay = delay
        self.audience: str | None = "spectators"
        self._service = service
        self._send = send
        self._clock = clock
        self._version = 0  # the version of the last view sent
        self._shown: tuple[int, int, bool] | None = None  # what the last view showed
        self._awaited: set[float] = set()  # the held-back changes a timer is armed for
        self._timers: set[asyncio.TimerHandle] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    def view(self, room: Room) -> dict[str, Any]:
        """The room as this spectator may see it now; the changes it holds back are each
        shown when their delay is up."""
        return self._view_at(room, self._clock())

    def _view_at(self, room: Room, now: float) -> dict[str, Any]:
        cutoff = now - self.delay
        state = delayed_snapshot(room, cutoff, now)
        self._version = max(self._version, state["version"])
        state["version"] = self._version
        self._shown = (state["version"], state["ply"], state["outcome"] is None)
        hidden = hidden_times(room, cutoff)
        if hidden and hidden[0] not in self._awaited:  # the next one is armed when it shows
            self._later(hidden[0] + self.delay - now + SLACK, awaited=hidden[0])
        return state

    # -- input from the hub ---------------------------------------------------------------

    def deliver(self, version: int, text: str) -> None:
        self._later(self.delay)

    def deliver_all(self, events: list[tuple[int, str]]) -> None:
        self._later(self.delay)

    def deliver_chat(self, text: str) -> None:
        if not self._closed:
            self._send(text)

    # -- output ---------------------------------------------------------------------------

    def _later(self, after: float, *, awaited: float | None = None) -> None:
        """Send the view ``after`` seconds from now; ``awaited``: the time of the held-back
        change this timer is for (armed once; armed again if it fires too early)."""
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle | None = None
        if awaited is not None:
            self._awaited.add(awaited)

        def fire() -> None:
            assert handle is not None
            self._timers.discard(handle)
            if awaited is not None:
                self._awaited.discard(awaited)
            task = loop.create_task(self.send_state(), name=f"delayed:{self.room_id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        handle = loop.call_later(max(0.0, after), fire)
        self._timers.add(handle)

    async def send_state(self, ref: str | None = None) -> None:
        """Send the delayed view of the room now (a ``sync``'s answer, or a change's turn)."""
        try:
            room = await self._service.current(self.room_id)
        except RoomError as exc:
            log.info("room %s: no delayed view: %s", self.room_id, exc.message)
            return
        if self._closed:
            return
        shown = self._shown
        state = self._view_at(room, self._clock())
        if ref is None and self._shown == shown:
            return  # a timer whose change an earlier view showed already
        self._send(dumps(state_message(state, ref)))

    def close(self) -> None:
        self._closed = True
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()
        self._awaited.clear()
        for task in tuple(self._tasks):
            task.cancel()

    async def closed(self) -> None:
        """``close``, then wait for the views under way to end."""
        self.close()
        await cancel_all(self._tasks)
