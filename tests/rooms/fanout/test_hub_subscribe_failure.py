"""A room's subscription that fails reaches every connection waiting on it as a typed
``unavailable`` (the client joins again), never as a bare ConnectionError that the session
would answer as an internal error with a traceback."""

from __future__ import annotations

import asyncio

import pytest

from rooms import ErrorCode, RoomError
from rooms.backends import MemoryBus
from rooms.backends.memory import MemorySubscription
from rooms.fanout.hub import Hub


class _Listener:
    def deliver(self, version: int, text: str) -> None:
        pass


class _FailingBus(MemoryBus):
    """A bus whose subscribe fails after a while, as Redis frozen past the confirmation."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()

    async def subscribe(self, channel: str) -> MemorySubscription:
        await self.release.wait()
        raise RoomError(ErrorCode.UNAVAILABLE, "Redis did not confirm the channel")


async def test_every_waiter_of_a_failed_subscription_gets_unavailable() -> None:
    bus = _FailingBus()
    hub = Hub(bus)
    first = asyncio.create_task(hub.attach("frozen", _Listener()))
    await asyncio.sleep(0)  # the first attach is subscribing
    second = asyncio.create_task(hub.attach("frozen", _Listener()))
    await asyncio.sleep(0)
    bus.release.set()
    for attach in (first, second):
        with pytest.raises(RoomError) as failed:
            await attach
        assert failed.value.code is ErrorCode.UNAVAILABLE
    assert hub.listeners("frozen") == 0
