"""A crowd's fan-out is served in slices (rooms.fanout.hub): other rooms' players get through
between them, a room's players get its events at once, and every connection still gets the
room's events in order, each once. What is owed meanwhile, for any mix of events, turns and
listeners, is tested on its own in test_backlog.py."""

from __future__ import annotations

import asyncio

from rooms.backends import MemoryBus
from rooms.fanout.hub import SLICE, Hub
from tests.support.waiting import eventually

CROWD = 5 * SLICE + 17


class Recorder:
    """A listener that notes, in one list shared by all, who got which event when."""

    def __init__(self, log: list[tuple[str, int]], name: str, audience: str | None) -> None:
        self.log, self.name, self.audience = log, name, audience
        self.versions: list[int] = []

    def deliver(self, version: int, text: str) -> None:
        assert text == f'{{"version":{version}}}'
        self.versions.append(version)
        self.log.append((self.name, version))

    def deliver_chat(self, text: str) -> None:
        self.log.append((self.name, -1))


class BatchRecorder(Recorder):
    """A Recorder that also takes several events at once (a Feed's ``deliver_all``), noting
    each hand-over."""

    def __init__(self, log: list[tuple[str, int]], name: str, audience: str | None) -> None:
        super().__init__(log, name, audience)
        self.handed: list[list[int]] = []

    def deliver(self, version: int, text: str) -> None:
        self.handed.append([version])
        super().deliver(version, text)

    def deliver_all(self, events: list[tuple[int, str]]) -> None:
        self.handed.append([version for version, _ in events])
        for version, text in events:
            super().deliver(version, text)


async def _room(
    hub: Hub, log: list[tuple[str, int]], room: str, watchers: int, kind: type[Recorder] = Recorder
) -> tuple[list[Recorder], list[Recorder]]:
    players = [Recorder(log, f"{room}/player{i}", "players") for i in range(2)]
    crowd = [kind(log, f"{room}/watcher{i}", "spectators") for i in range(watchers)]
    for listener in [*crowd, *players]:  # the players last: the hub puts them first anyway
        await hub.attach(room, listener)
    return players, crowd


async def _settle(log: list[tuple[str, int]], expected: int) -> None:
    await eventually(lambda: len(log) >= expected, f"{expected} deliveries")
    assert len(log) == expected


def _event(version: int) -> str:
    return f'{{"version":{version}}}'


async def test_other_rooms_players_get_through_between_the_slices_of_a_crowd() -> None:
    bus = MemoryBus()
    log: list[tuple[str, int]] = []
    hub = Hub(bus)
    players, crowd = await _room(hub, log, "crowded", CROWD)
    (opponent, _), _ = await _room(hub, log, "small", 0)
    await bus.publish("crowded", _event(1))
    await bus.publish("small", _event(1))  # published right after: not behind 700 sends
    await _settle(log, CROWD + 2 + 2)
    order = [name for name, _ in log]
    assert set(order[:2]) == {p.name for p in players}  # the crowded room's players first
    assert order.index(opponent.name) <= SLICE + 3
    assert all(w.versions == [1] for w in crowd) and all(p.versions == [1] for p in players)
    await hub.close()


async def test_a_room_s_events_reach_everyone_in_order_and_its_players_at_once() -> None:
    bus = MemoryBus()
    log: list[tuple[str, int]] = []
    hub = Hub(bus)
    players, crowd = await _room(hub, log, "crowded", CROWD)
    for version in (1, 2, 3):  # each arrives while the earlier fan-outs are being served
        await bus.publish("crowded", _event(version))
    await _settle(log, 3 * (CROWD + 2))
    assert all(w.versions == [1, 2, 3] for w in crowd)
    assert all(p.versions == [1, 2, 3] for p in players)
    # The players had all three before most of the crowd had the first.
    last_player = max(log.index((p.name, 3)) for p in players)
    assert last_player < SLICE + 3 * 2
    assert sum(1 for entry in log[:last_player] if entry[1] == 1) < SLICE + 2


async def test_a_listener_gone_or_come_while_a_fan_out_is_served() -> None:
    bus = MemoryBus()
    log: list[tuple[str, int]] = []
    hub = Hub(bus)
    players, crowd = await _room(hub, log, "crowded", CROWD)
    await bus.publish("crowded", _event(1))
    # One turn of the loop, no more: the first slice is out and the rest still owed, which
    # is the moment this test is about (a wait for a condition would let the fan-out end).
    await asyncio.sleep(0)
    late = Recorder(log, "late", "spectators")
    await hub.attach("crowded", late)
    await hub.detach("crowded", crowd[-1])  # still owed the event: it gets it (and ignores it)
    await bus.publish("crowded", _event(2))
    await _settle(log, 2 * (CROWD + 2))
    assert late.versions == [2]  # attached after the first event was handed out
    assert all(w.versions == [1, 2] for w in crowd[:-1]) and crowd[-1].versions == [1]
    assert all(p.versions == [1, 2] for p in players)
    await hub.close()


async def test_a_player_placed_after_the_order_was_made_goes_first_from_then_on() -> None:
    """The hub orders a crowd once, not at each event; a connection that joins after that
    (its audience set only once its join commits) and a connection that leaves change it."""
    bus = MemoryBus()
    log: list[tuple[str, int]] = []
    hub = Hub(bus)
    players, crowd = await _room(hub, log, "crowded", CROWD)
    late = Recorder(log, "crowded/late", None)  # attached, not joined yet
    await hub.attach("crowded", late)
    await bus.publish("crowded", _event(1))
    await _settle(log, CROWD + 3)
    assert log.index(("crowded/late", 1)) >= 2  # among the watchers while unplaced
    late.audience = "players"  # its join committed: a seat
    log.clear()
    await bus.publish("crowded", _event(2))
    await _settle(log, CROWD + 3)
    assert {name for name, _ in log[:3]} == {"crowded/late", *(p.name for p in players)}
    await hub.detach("crowded", players[1])  # a player left
    log.clear()
    await bus.publish("crowded", _event(3))
    await _settle(log, CROWD + 2)
    assert {name for name, _ in log[:2]} == {"crowded/late", players[0].name}
    assert players[1].versions == [1, 2] and late.versions == [1, 2, 3]
    assert all(w.versions == [1, 2, 3] for w in crowd)
    await hub.close()


async def test_events_that_come_during_a_fan_out_reach_the_unserved_in_one_hand_over() -> None:
    """A game's last move, the rematch offer and the new game, one after the other while the
    crowd is still being served: a watcher not yet served gets the three at once (one write),
    one served the first already gets the other two at once."""
    bus = MemoryBus()
    log: list[tuple[str, int]] = []
    hub = Hub(bus)
    players, crowd = await _room(hub, log, "crowded", CROWD, BatchRecorder)
    for version in (1, 2, 3):  # all three reach the hub before its first slice is out
        await bus.publish("crowded", _event(version))
    await _settle(log, 3 * (CROWD + 2))
    assert all(w.versions == [1, 2, 3] for w in crowd)
    assert all(p.versions == [1, 2, 3] for p in players)
    handed = sorted(tuple(map(tuple, w.handed)) for w in crowd)  # type: ignore[attr-defined]
    first_slice = SLICE - len(players)  # the watchers served with the players
    assert handed.count(((1,), (2, 3))) == first_slice
    assert handed.count(((1, 2, 3),)) == CROWD - first_slice
    await hub.close()


async def test_an_event_that_comes_mid_slice_is_owed_with_the_rest() -> None:
    bus = MemoryBus()
    log: list[tuple[str, int]] = []
    hub = Hub(bus)
    _, crowd = await _room(hub, log, "crowded", CROWD, BatchRecorder)
    await bus.publish("crowded", _event(1))
    for _ in range(3):  # the first slices of event 1 out, the rest still owed
        await asyncio.sleep(0)
    await bus.publish("crowded", _event(2))
    await _settle(log, 2 * (CROWD + 2))
    assert all(w.versions == [1, 2] for w in crowd)
    handed = [w.handed for w in crowd]  # type: ignore[attr-defined]
    assert [[1, 2]] in handed and [[1], [2]] in handed
    assert all(h in ([[1, 2]], [[1], [2]]) for h in handed)
    await hub.close()
