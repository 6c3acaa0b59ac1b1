"""A worker's push dispatch: notices from its own commits, pushed off the move path.

It observes the rooms its service commits (as the rater and the fair-play judge do). For each
commit that gave an absent player the turn or ended their game (rooms.push.notices) it puts a
notice on a bounded queue and returns at once: the move that made it is already committed
and answered, and never waits for a push. ``concurrency`` tasks take notices off the queue,
read the player's subscriptions and push to each (server.push.sender, each within its
timeout); a subscription the push service says is gone is removed. A full queue drops the
notice (counted): a push is a courtesy, never a record, and the game itself is in the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from rooms.common.tasks import cancel_all
from rooms.errors import RoomError
from rooms.push import Notice, PushBook, notices_of
from rooms.room.room import Room

from ..metrics.families import PUSH_MESSAGES
from .sender import Delivery, PushSender

__all__ = ["PushDispatch"]

log = logging.getLogger("tictactoe.push")

_OUTCOME = {Delivery.SENT: "sent", Delivery.FAILED: "failed", Delivery.GONE: "dropped"}


class PushDispatch:
    def __init__(self, book: PushBook, *, queue: int = 256, concurrency: int = 4) -> None:
        self._book = book
        self._queue: asyncio.Queue[Notice] = asyncio.Queue(maxsize=queue)
        self._concurrency = concurrency
        self._sender: PushSender | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.idle = asyncio.Event()
        """Set whenever no notice is queued or in flight (tests wait on it)."""
        self.idle.set()
        self._busy = 0

    @property
    def sender(self) -> PushSender | None:
        return self._sender

    def start(self, sender: PushSender) -> None:
        """Push from now on with ``sender`` (its VAPID key is known once the store is open)."""
        self._sender = sender
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._run(), name=f"push:{n}") for n in range(self._concurrency)
        ]

    def observe(self, room: Room, changed: bool) -> None:
        """A service observer (rooms.service): queue the notices of this worker's commit."""
        if not changed or self._sender is None:
            return
        for notice in notices_of(room):
            try:
                self._queue.put_nowait(notice)
            except asyncio.QueueFull:
                PUSH_MESSAGES.labels("overflow").inc()
                continue
            self._busy += 1
            self.idle.clear()

    async def _run(self) -> None:
        while True:
            notice = await self._queue.get()
            try:
                await self._deliver(notice)
            except Exception:  # a push is never worth a worker: say so and go on
                log.exception("push: notifying %s failed", notice.player_id)
                PUSH_MESSAGES.labels("failed").inc()
            finally:
                self._busy -= 1
                if self._busy == 0:
                    self.idle.set()

    async def _deliver(self, notice: Notice) -> None:
        sender = self._sender
        assert sender is not None
        try:
            subscriptions = await self._book.of(notice.player_id)
        except RoomError as exc:  # the store is unreachable: this notice goes untold
            log.warning("push: %s not notified: %s", notice.player_id, exc.message)
            PUSH_MESSAGES.labels("failed").inc()
            return
        payload = notice.payload()
        for subscription in subscriptions:
            delivery = await sender.send(subscription, payload)
            PUSH_MESSAGES.labels(_OUTCOME[delivery]).inc()
            if delivery is Delivery.GONE:
                with contextlib.suppress(RoomError):  # the next gone answer tries again
                    await self._book.remove(notice.player_id, subscription.endpoint)

    async def close(self) -> None:
        await cancel_all(self._tasks)
        self._tasks = []
        if self._sender is not None:
            await self._sender.close()
