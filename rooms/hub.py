"""The worker's fan-out: one bus subscription per room that has local listeners.

A listener (one per connection, a ``Feed``) is attached before its connection reads the
room, so it sees every event published afterwards (subscribe first, then read). The pump
decodes each event's version once per worker and hands the same text to every listener.
Listeners must not block: they queue, and a slow one is dropped by its own connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Protocol

from .bus import Bus, Subscription
from .protocol import event_version

__all__ = ["Hub", "Listener"]

log = logging.getLogger("tictactoe.rooms")


class Listener(Protocol):
    def deliver(self, version: int, text: str) -> None: ...


@dataclass(slots=True)
class _Channel:
    listeners: set[Listener] = field(default_factory=set)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    subscription: Subscription | None = None
    pump: asyncio.Task[None] | None = None


class Hub:
    def __init__(self, bus: Bus) -> None:
        self._bus = bus
        self._channels: dict[str, _Channel] = {}

    def listeners(self, room_id: str) -> int:
        channel = self._channels.get(room_id)
        return len(channel.listeners) if channel is not None else 0

    async def attach(self, room_id: str, listener: Listener) -> None:
        """Deliver every event of ``room_id`` published after this returns to ``listener``."""
        channel = self._channels.get(room_id)
        if channel is None:
            channel = self._channels[room_id] = _Channel()
            channel.listeners.add(listener)
            try:
                channel.subscription = await self._bus.subscribe(room_id)
            except BaseException:
                del self._channels[room_id]
                channel.ready.set()  # wake any waiter; it finds the channel gone
                raise
            channel.pump = asyncio.create_task(
                self._pump(room_id, channel, channel.subscription), name=f"hub:{room_id}"
            )
            channel.ready.set()
            return
        channel.listeners.add(listener)
        await channel.ready.wait()
        if self._channels.get(room_id) is not channel:
            raise ConnectionError(f"could not subscribe to room {room_id!r}")

    async def detach(self, room_id: str, listener: Listener) -> None:
        channel = self._channels.get(room_id)
        if channel is None:
            return
        channel.listeners.discard(listener)
        if not channel.listeners and channel.ready.is_set():
            del self._channels[room_id]
            await self._stop(channel)

    async def _stop(self, channel: _Channel) -> None:
        if channel.pump is not None:
            channel.pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await channel.pump
        if channel.subscription is not None:
            await channel.subscription.close()

    async def _pump(self, room_id: str, channel: _Channel, subscription: Subscription) -> None:
        while True:
            text = await subscription.get()
            try:
                version = event_version(text)
            except ValueError:
                log.warning("room %s: ignoring a bus message that is not an event", room_id)
                continue
            for listener in tuple(channel.listeners):
                try:
                    listener.deliver(version, text)
                except Exception:  # one broken listener must not starve the others
                    log.exception("room %s: a listener failed", room_id)

    async def close(self) -> None:
        channels, self._channels = list(self._channels.values()), {}
        for channel in channels:
            await self._stop(channel)
