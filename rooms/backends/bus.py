"""The Bus seam: change notifications between workers. The bus is a hint (invariant 4).

A subscriber may miss messages (a dropped connection, an overflowing buffer): receivers
detect the gap by version and re-read the store. Messages are the event texts exactly as
the store logged them, so each event is encoded once and sent as is to every receiver.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

__all__ = ["BufferedSubscription", "Bus", "Subscription"]


class Subscription(Protocol):
    async def get(self) -> str:
        """The next message on the channel (waits for one)."""

    def listen(self, listener: Callable[[str], None]) -> None:
        """Hand every later message to ``listener`` instead (see BufferedSubscription)."""

    async def close(self) -> None: ...


class BufferedSubscription:
    """One room's messages in a bounded queue that drops on overflow (the bus is a hint:
    the receiver repairs the gap); each bus subclasses it with its own ``close``.

    Or, once ``listen`` was called, handed to a listener as they arrive: the hub of a worker
    takes every room's messages that way, on the bus's reader, without a task and a queue
    hop per room and message (one loop turn less between Redis and the client)."""

    def __init__(self, room_id: str, buffer: int) -> None:
        self.room_id = room_id
        self._queue: asyncio.Queue[str] = asyncio.Queue(maxsize=buffer)
        self._listener: Callable[[str], None] | None = None
        self.dropped = 0

    def listen(self, listener: Callable[[str], None]) -> None:
        """Hand every later message to ``listener`` instead of queueing it for ``get``;
        what was queued meanwhile is handed over first, in order. The listener runs on the
        bus's reader: it must neither block nor raise."""
        while not self._queue.empty():
            listener(self._queue.get_nowait())
        self._listener = listener

    def _offer(self, message: str) -> None:
        if self._listener is not None:
            self._listener(message)
            return
        try:
            self._queue.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped += 1

    async def get(self) -> str:
        return await self._queue.get()

    async def close(self) -> None:
        raise NotImplementedError


class Bus(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def publish(self, room_id: str, message: str) -> None: ...

    async def subscribe(self, room_id: str) -> Subscription:
        """A subscription that receives every message published after this returns."""
