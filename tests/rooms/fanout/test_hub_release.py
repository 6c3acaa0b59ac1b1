"""A room's channel and its subscription are freed as soon as its last listener leaves,
by reference counting alone: a worker with a new room per game must not leave a cycle per
room for the collector's full collection (docs/performance.md, "Design choices and their
effect": connections freed at once)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from rooms.backends import MemoryBus
from rooms.fanout.hub import Hub
from tests.support.waiting import eventually


class _Listener:
    def __init__(self) -> None:
        self.got: list[tuple[int, str]] = []

    def deliver(self, version: int, text: str) -> None:
        self.got.append((version, text))


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def test_the_last_detach_frees_the_subscription_without_the_collector(
    no_collector: None,
) -> None:
    bus = MemoryBus()
    hub = Hub(bus)
    first, second = _Listener(), _Listener()
    await hub.attach("freed1", first)
    await hub.attach("freed1", second)
    subscriptions = list(bus._channels["freed1"])
    assert len(subscriptions) == 1
    gone = weakref.ref(subscriptions[0])
    del subscriptions
    await hub.publish("freed1", '{"type":"moved","version":1}')
    await eventually(lambda: first.got and second.got, "the event handed to both listeners")
    assert first.got == second.got == [(1, '{"type":"moved","version":1}')]
    await hub.detach("freed1", first)
    assert gone() is not None and hub.listeners("freed1") == 1  # one listener still there
    await hub.detach("freed1", second)
    assert hub.listeners("freed1") == 0
    assert gone() is None, "the closed subscription is held by a reference cycle"


async def test_a_room_attached_again_after_its_release_gets_a_new_subscription(
    no_collector: None,
) -> None:
    bus = MemoryBus()
    hub = Hub(bus)
    listener = _Listener()
    await hub.attach("freed2", listener)
    await hub.detach("freed2", listener)
    await hub.attach("freed2", listener)
    await bus.publish("freed2", '{"type":"moved","version":4}')
    await eventually(lambda: listener.got, "the event handed to the listener")
    assert listener.got == [(4, '{"type":"moved","version":4}')]
