"""Hub and Feed: every event reaches every connection once, in order, gaps repaired."""

from __future__ import annotations

import asyncio
import json

from core import Rules
from rooms import Feed, Hub, Role, RoomService
from rooms.backends import MemoryBus, MemoryStore
from rooms.room import Join
from tests.support.waiting import eventually


class Inbox:
    def __init__(self) -> None:
        self.texts: list[str] = []

    def __call__(self, text: str) -> None:
        self.texts.append(text)

    @property
    def messages(self) -> list[dict]:  # type: ignore[type-arg]
        return [json.loads(t) for t in self.texts]

    async def wait_for(self, count: int) -> None:
        await eventually(lambda: len(self.texts) >= count, f"{count} messages")


async def setup(bus_buffer: int = 1024, log_size: int = 256):  # type: ignore[no-untyped-def]
    store = MemoryStore(MemoryBus(buffer=bus_buffer), log_size=log_size)
    service = RoomService(store)
    room = await service.create(Rules(), public=False)
    return store, service, Hub(store.bus), room.room_id


async def join_many(service: RoomService, room_id: str, count: int, prefix: str = "s") -> None:
    for i in range(count):
        await service.execute(room_id, Join(f"{prefix}{i}", Role.SPECTATOR))


async def test_hub_fans_out_the_same_text_and_unsubscribes_when_empty() -> None:
    store, service, hub, room_id = await setup()
    inboxes = [Inbox() for _ in range(3)]
    feeds = [Feed(room_id, service, inbox) for inbox in inboxes]
    for feed in feeds:
        await hub.attach(room_id, feed)
        feed.start(0)
    await join_many(service, room_id, 5)
    for inbox in inboxes:
        await inbox.wait_for(5)
        assert [m["version"] for m in inbox.messages] == [1, 2, 3, 4, 5]
    assert all(a is b for a, b in zip(inboxes[0].texts, inboxes[1].texts, strict=True))
    assert store.bus.subscribers(room_id) == 1
    for feed in feeds:
        await hub.detach(room_id, feed)
    assert store.bus.subscribers(room_id) == 0 and hub.listeners(room_id) == 0
    await hub.close()


async def test_events_before_the_snapshot_are_dropped_and_later_ones_kept() -> None:
    _, service, hub, room_id = await setup()
    inbox = Inbox()
    feed = Feed(room_id, service, inbox)
    await hub.attach(room_id, feed)  # subscribe first
    await join_many(service, room_id, 3)
    await eventually(lambda: len(feed._pending) == 3, "the three events held by the feed")
    assert inbox.texts == []  # held until the snapshot is sent
    feed.start(2)  # the snapshot the connection got was at version 2
    await join_many(service, room_id, 2, prefix="t")
    await inbox.wait_for(3)
    assert [m["version"] for m in inbox.messages] == [3, 4, 5]
    await hub.close()


async def test_a_bus_that_drops_messages_is_repaired_from_the_log() -> None:
    _, service, hub, room_id = await setup(bus_buffer=2)
    inbox = Inbox()
    feed = Feed(room_id, service, inbox)
    await hub.attach(room_id, feed)
    feed.start(0)
    await join_many(service, room_id, 30)  # no await yields: the bus overflows and drops
    await inbox.wait_for(2)  # the two the bus kept
    await join_many(service, room_id, 1, prefix="late")  # reveals the gap
    await inbox.wait_for(31)
    await asyncio.sleep(0.02)  # nothing more arrives (bounded): no event twice
    assert [m["version"] for m in inbox.messages] == list(range(1, 32))
    assert feed.repairs >= 1
    await hub.close()


async def test_when_the_log_is_too_short_the_full_state_is_sent() -> None:
    _, service, hub, room_id = await setup(bus_buffer=1, log_size=3)
    inbox = Inbox()
    feed = Feed(room_id, service, inbox)
    await hub.attach(room_id, feed)
    feed.start(0)
    await join_many(service, room_id, 10)
    await inbox.wait_for(1)  # the one the bus kept
    await join_many(service, room_id, 1, prefix="late")
    await inbox.wait_for(2)
    await asyncio.sleep(0.02)  # nothing more arrives (bounded)
    kinds = [m["type"] for m in inbox.messages]
    assert "state" in kinds
    state = next(m for m in inbox.messages if m["type"] == "state")
    assert state["ref"] is None and state["state"]["spectators"] == state["version"]
    versions = [m["version"] for m in inbox.messages]
    assert versions == sorted(versions) and versions[-1] == 11
    await hub.close()


async def test_send_state_is_never_older_than_what_was_sent() -> None:
    _, service, hub, room_id = await setup()
    inbox = Inbox()
    feed = Feed(room_id, service, inbox)
    await hub.attach(room_id, feed)
    feed.start(0)
    await join_many(service, room_id, 3)
    await inbox.wait_for(3)
    await feed.send_state("s1")
    state = inbox.messages[-1]
    assert state["type"] == "state" and state["ref"] == "s1" and state["version"] == 3
    await hub.close()


async def test_the_players_get_each_event_before_a_crowd_of_spectators() -> None:
    """Frames go out in the order the hub hands them over: the players' first, whenever
    they attached, so a crowd watching does not delay the game."""
    _, service, hub, room_id = await setup()
    arrivals: list[str] = []

    class Recorder:
        def __init__(self, name: str, audience: str | None) -> None:
            self.name, self.audience = name, audience

        def deliver(self, version: int, text: str) -> None:
            arrivals.append(self.name)

    crowd = [Recorder(f"spectator{i}", "spectators") for i in range(20)]
    for listener in (
        *crowd[:10],
        Recorder("x", "players"),
        *crowd[10:],
        Recorder("o", "players"),
        Recorder("joining", None),
    ):
        await hub.attach(room_id, listener)
    await join_many(service, room_id, 1)
    await eventually(lambda: len(arrivals) == 23, "the event at all 23 listeners")
    assert sorted(arrivals[:2]) == ["o", "x"] and len(arrivals) == 23
    assert set(arrivals[2:]) == {r.name for r in crowd} | {"joining"}
    await hub.close()


async def test_a_listener_gets_what_was_queued_first_then_each_message_in_order() -> None:
    bus = MemoryBus(buffer=8)
    subscription = await bus.subscribe("r")
    bus.deliver("r", "one")
    bus.deliver("r", "two")  # queued: nobody listens yet
    heard: list[str] = []
    subscription.listen(heard.append)
    assert heard == ["one", "two"]
    bus.deliver("r", "three")  # the memory bus hands it over on the next loop turn
    assert heard == ["one", "two"]
    await asyncio.sleep(0)  # the test: exactly one loop turn later it is handed over
    assert heard == ["one", "two", "three"]
    await subscription.close()
    bus.deliver("r", "four")
    await asyncio.sleep(0)  # nothing happens, one loop turn: closed, it reaches nobody
    assert heard == ["one", "two", "three"] and subscription.dropped == 0


class Pairs(Inbox):
    """An inbox that also takes texts at once, as one write (Connection.send_all)."""

    def __init__(self) -> None:
        super().__init__()
        self.pairs: list[tuple[str, str]] = []

    def all(self, texts: list[str]) -> None:
        first, second = texts  # an answer and its event
        self.pairs.append((first, second))
        self.texts += texts


async def listening(hub: Hub, service: RoomService, room_id: str, inbox: Inbox) -> Feed:
    """A feed on ``inbox`` (taking pairs when it is a ``Pairs``), attached and started at 0."""
    together = inbox.all if isinstance(inbox, Pairs) else None
    feed = Feed(room_id, service, inbox, send_all=together)
    await hub.attach(room_id, feed)
    feed.start(0)
    return feed


async def test_an_answer_carries_its_event_and_the_bus_copy_is_not_sent_again() -> None:
    _, service, hub, room_id = await setup()
    inbox = Pairs()
    feed = await listening(hub, service, room_id, inbox)
    executed = await service.execute(room_id, Join("s0", Role.SPECTATOR))
    assert executed.event_text is not None and executed.room.version == 1
    feed.answer('{"type":"ack"}', executed.room.version, executed.event_text)
    assert inbox.pairs == [('{"type":"ack"}', executed.event_text)]
    await join_many(service, room_id, 1, prefix="t")  # the bus's own events still come
    await inbox.wait_for(3)
    await asyncio.sleep(0.05)  # the test: long enough for a duplicate to arrive, none does
    assert [m.get("version") for m in inbox.messages] == [None, 1, 2]
    await hub.close()


async def test_an_answer_whose_event_is_not_next_waits_for_the_bus() -> None:
    _, service, hub, room_id = await setup()
    inbox = Pairs()
    feed = await listening(hub, service, room_id, inbox)
    await join_many(service, room_id, 1)  # version 1, not yet handed over by the bus
    executed = await service.execute(room_id, Join("late", Role.SPECTATOR))
    feed.answer('{"type":"ack"}', executed.room.version, executed.event_text)
    assert inbox.pairs == [] and inbox.messages == [{"type": "ack"}]
    await inbox.wait_for(3)
    assert [m.get("version") for m in inbox.messages] == [None, 1, 2]
    feed.answer('{"type":"pong"}', None, None)  # nothing committed: the answer alone
    assert inbox.messages[-1] == {"type": "pong"} and len(inbox.texts) == 4
    await hub.close()


async def test_without_a_batch_sender_the_answer_and_event_go_one_after_the_other() -> None:
    _, service, hub, room_id = await setup()
    inbox = Inbox()
    feed = await listening(hub, service, room_id, inbox)
    executed = await service.execute(room_id, Join("s0", Role.SPECTATOR))
    feed.answer('{"type":"ack"}', executed.room.version, executed.event_text)
    assert inbox.texts == ['{"type":"ack"}', executed.event_text]
    await asyncio.sleep(0.05)  # the test: the bus copy arrives and is dropped
    assert len(inbox.texts) == 2
    await hub.close()


async def test_events_wait_for_the_answer_of_a_command_under_way() -> None:
    _, service, hub, room_id = await setup()
    inbox = Pairs()
    feed = await listening(hub, service, room_id, inbox)
    feed.expect()
    own = await service.execute(room_id, Join("s0", Role.SPECTATOR))
    await join_many(service, room_id, 1, prefix="t")  # someone else's, after it
    await asyncio.sleep(0.05)  # the test: both copies come back from the bus meanwhile
    assert inbox.texts == []  # they waited for the answer
    feed.answer('{"type":"ack"}', own.room.version, own.event_text)
    assert inbox.pairs == [('{"type":"ack"}', own.event_text)]
    assert [m.get("version") for m in inbox.messages] == [None, 1, 2]
    await hub.close()


async def test_a_command_that_fails_releases_what_waited_in_order() -> None:
    _, service, hub, room_id = await setup()
    inbox = Inbox()
    feed = await listening(hub, service, room_id, inbox)
    feed.expect()
    await join_many(service, room_id, 2)
    await asyncio.sleep(0.05)  # the test: both events come back from the bus meanwhile
    assert inbox.texts == []
    feed.release()
    assert [m["version"] for m in inbox.messages] == [1, 2]
    await join_many(service, room_id, 1, prefix="t")  # and later ones flow again
    await inbox.wait_for(3)
    assert [m["version"] for m in inbox.messages] == [1, 2, 3]
    await hub.close()


class Batches(Inbox):
    """An inbox that also takes several texts at once, as one write (Connection.send_all)."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[list[str]] = []

    def __call__(self, text: str) -> None:
        self.writes.append([text])
        self.texts.append(text)

    def all(self, texts: list[str]) -> None:
        self.writes.append(list(texts))
        self.texts += texts


def _events(*versions: int) -> list[tuple[int, str]]:
    return [(v, json.dumps({"type": "moved", "version": v})) for v in versions]


async def test_events_owed_together_are_sent_in_one_write_in_order() -> None:
    _, service, _, room_id = await setup()
    inbox = Batches()
    feed = Feed(room_id, service, inbox, send_all=inbox.all)
    feed.start(2)
    feed.deliver_all(_events(1, 2, 3, 4))  # the first two it has: dropped
    assert inbox.writes == [[text for _, text in _events(3, 4)]] and feed.version == 4
    feed.deliver_all(_events(5))
    assert [m["version"] for m in inbox.messages] == [3, 4, 5] and len(inbox.writes) == 2


async def test_events_owed_together_without_a_sender_for_them_go_one_by_one() -> None:
    _, service, _, room_id = await setup()
    inbox = Batches()
    feed = Feed(room_id, service, inbox)
    feed.start(0)
    feed.deliver_all(_events(1, 2, 3))
    assert inbox.writes == [[text] for _, text in _events(1, 2, 3)]


async def test_events_owed_together_wait_as_single_ones_do() -> None:
    """Before the snapshot, behind a command under way and across a gap, events handed over
    together wait, are dropped and repaired exactly as when handed over one by one."""
    _, service, hub, room_id = await setup()
    inbox = Batches()
    feed = Feed(room_id, service, inbox, send_all=inbox.all)
    await hub.attach(room_id, feed)
    await join_many(service, room_id, 4)  # versions 1-4, in the store's log
    await eventually(lambda: len(feed._pending) == 4, "the bus's copies held")
    feed._pending.clear()  # as if the bus had lost them: only the batch below is known
    feed.deliver_all(_events(1, 2))  # no snapshot yet: held
    assert inbox.texts == []
    feed.start(1)  # the snapshot was at 1: 2 goes
    assert [m["version"] for m in inbox.messages] == [2]
    feed.expect()
    feed.deliver_all(_events(3))
    assert len(inbox.texts) == 1  # behind the command under way
    feed.release()
    assert [m["version"] for m in inbox.messages] == [2, 3]
    log = await service.events_since(room_id, 3)
    assert log is not None
    feed.deliver_all([(5, '{"type":"later","version":5}')])  # 4 is missing: repaired
    await eventually(lambda: feed.version == 5, "the gap repaired")
    assert [m["version"] for m in inbox.messages] == [2, 3, 4, 5]
    assert inbox.texts[2] == log[0]  # version 4 from the store's log
    feed.close()
    feed.deliver_all(_events(6, 7))  # closed: nothing more
    assert len(inbox.texts) == 4
    await hub.close()
