"""rooms.common.metrics: rooms/ reports to whatever sink is installed (a no-op by default):
commits, the rooms a hub listens to, and repaired gaps, each once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core import Rules
from rooms import Feed, Hub, Role, RoomService
from rooms.backends import MemoryBus, MemoryStore
from rooms.common import metrics
from rooms.room import Join
from tests.support.waiting import eventually


class Recorded:
    """A sink keeping every report as (what, value)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    def names(self, what: str) -> list[object]:
        return [value for name, value in self.calls if name == what]

    def commit(self, seconds: float) -> None:
        self.calls.append(("commit", seconds))

    def redis_round_trip(self, seconds: float) -> None:
        self.calls.append(("redis_round_trip", seconds))

    def unavailable(self, operation: str) -> None:
        self.calls.append(("unavailable", operation))

    def bus_reconnect(self) -> None:
        self.calls.append(("bus_reconnect", None))

    def resync(self, kind: str) -> None:
        self.calls.append(("resync", kind))

    def lease_lost(self) -> None:
        self.calls.append(("lease_lost", None))

    def rooms(self, count: int) -> None:
        self.calls.append(("rooms", count))

    def fairplay(self, *, newly_flagged: int) -> None:
        self.calls.append(("fairplay", newly_flagged))


@pytest.fixture
def recorded() -> Iterator[Recorded]:
    before = metrics.sink
    sink = Recorded()
    metrics.install(sink)
    yield sink
    metrics.install(before)


def test_install_none_puts_back_the_sink_that_counts_nothing(recorded: Recorded) -> None:
    assert metrics.sink is recorded
    metrics.install(None)
    assert isinstance(metrics.sink, metrics.NullSink)
    typed: metrics.Sink = recorded  # mypy: the recording sink is a Sink too
    assert typed is recorded


async def test_each_commit_is_reported_with_its_time(recorded: Recorded) -> None:
    service = RoomService(MemoryStore(MemoryBus()))
    room = await service.create(Rules(), public=False)
    for i in range(3):
        await service.execute(room.room_id, Join(f"c{i}", Role.SPECTATOR))
    commits = recorded.names("commit")
    assert len(commits) == 3
    assert all(isinstance(s, float) and 0 <= s < 5 for s in commits)


async def test_the_hub_reports_the_rooms_it_listens_to(recorded: Recorded) -> None:
    store = MemoryStore(MemoryBus())
    service = RoomService(store)
    hub = Hub(store.bus)
    one, two = [(await service.create(Rules(), public=False)).room_id for _ in range(2)]
    feeds = [Feed(room_id, service, lambda text: None) for room_id in (one, one, two)]
    for feed in feeds:
        await hub.attach(feed.room_id, feed)
    for feed in feeds:
        await hub.detach(feed.room_id, feed)
    assert recorded.names("rooms") == [1, 2, 1, 0]  # a second connection changes nothing
    await hub.close()


async def test_a_repaired_gap_is_a_resync(recorded: Recorded) -> None:
    store = MemoryStore(MemoryBus(buffer=2))
    service = RoomService(store)
    room_id = (await service.create(Rules(), public=False)).room_id
    hub = Hub(store.bus)
    texts: list[str] = []
    feed = Feed(room_id, service, texts.append)
    await hub.attach(room_id, feed)
    feed.start(0)
    for i in range(10):  # no await yields in between: the bus drops all but two
        await service.execute(room_id, Join(f"s{i}", Role.SPECTATOR))
    await eventually(lambda: len(texts) >= 2, "the two events the bus kept")
    await service.execute(room_id, Join("late", Role.SPECTATOR))  # reveals the gap
    await eventually(lambda: len(texts) == 11, "every event, the gap repaired")
    assert recorded.names("resync") == ["gap"] * feed.repairs
    assert feed.repairs >= 1
    await hub.close()
