"""The worker's room cache: one store round trip per committed command in the steady
state, a stale copy repaired by the refusal itself, never a wrong commit or answer.

Round trips are counted as calls of the store (each ``load`` and ``swap`` is one request
to Redis; tests/bench counts the same thing from Redis' side with MONITOR)."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest

from core import MoveRequest, Rules
from rooms import Backend, BackendOptions, Feed, Hub, Role, RoomError, RoomService, open_backend
from rooms.backends import MemoryBus, MemoryStore, Store, StoredRoom, Swapped
from rooms.backends.store import Frame, framed, framed_head, unframe
from rooms.cache import CachedRoom, RoomCache
from rooms.protocol.messages import event_version
from rooms.room import Join, PlayMove
from tests.support.waiting import eventually


def rid() -> str:
    return "c" + secrets.token_hex(8)


def event(version: int) -> str:
    return f'{{"type":"spectators","version":{version},"count":{version}}}'


class Counted:
    """A store that counts its round trips (``load`` and ``swap`` calls)."""

    def __init__(self, store: Store) -> None:
        self.inner = store
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def load(self, room_id: str) -> StoredRoom | None:
        self.calls["load"] += 1
        return await self.inner.load(room_id)

    async def swap(
        self,
        room_id: str,
        expected: int,
        data: str,
        event: str,
        *,
        listed: bool,
        finished: bool | None = None,
        archive_unchanged: bool = False,
        publish: bool = True,
    ) -> Swapped:
        self.calls["swap"] += 1
        return await self.inner.swap(
            room_id,
            expected,
            data,
            event,
            listed=listed,
            finished=finished,
            archive_unchanged=archive_unchanged,
            publish=publish,
        )


# -- pure pieces ---------------------------------------------------------------------------


def test_frames_take_apart_again_and_nothing_else_passes_for_one() -> None:
    data = json.dumps({"name": "a\nb é"}, separators=(",", ":"))  # newlines are escaped
    assert unframe(framed(7, event(7), data)) == Frame(7, event(7), data)
    assert unframe(framed(7, event(7), "a\nb")) == Frame(7, event(7), "a\nb")
    assert unframe(framed_head(7, 3, event(7), data)) == Frame(7, event(7), data, 3)
    for text in (
        event(7),
        "#x\n{}\n{}",
        "#7\n{}",
        "#0\n{}\n{}",
        "#-1\n{}\n{}",
        "",
        "#7/\n{}\n{}",
        "#7/x\n{}\n{}",
        "#7/0\n{}\n{}",
        "#7/-2\n{}\n{}",
    ):
        assert unframe(text) is None


def held(cached: CachedRoom | None) -> StoredRoom | None:
    return None if cached is None else StoredRoom(cached.version, cached.data)


def test_the_cache_moves_forward_keeps_the_store_s_word_and_stays_bounded() -> None:
    cache = RoomCache(size=2)
    assert cache.get("a") is None and cache.misses == 1
    cache.offer("a", 3, "a3")
    assert held(cache.offer("a", 2, "a2")) == StoredRoom(3, "a3")  # an older bus message
    cache.put("a", StoredRoom(1, "a1"))  # the store answered: it wins even when older
    assert held(cache.get("a")) == StoredRoom(1, "a1") and cache.hits == 1
    cache.offer("b", 1, "b1")
    cache.get("a")  # a is now the most recently used
    cache.offer("c", 1, "c1")
    assert "a" in cache and "c" in cache and "b" not in cache and len(cache) == 2
    assert RoomCache(size=0).offer("a", 1, "a1") is None
    with pytest.raises(ValueError):
        RoomCache(size=-1)


# -- swap, on every backend ----------------------------------------------------------------


async def test_swap_commits_or_answers_with_the_current_room(backend: Backend) -> None:
    room = rid()
    await backend.store.create(room, "v0", listed=False)
    subscription = await backend.bus.subscribe(room)
    assert await backend.store.swap(room, 0, "v1", event(1), listed=False) == Swapped(True)
    refused = await backend.store.swap(room, 0, "lost", event(1), listed=False)
    assert refused == Swapped(False, StoredRoom(1, "v1"))
    assert await backend.store.swap(room, 7, "x", event(8), listed=False) == refused
    assert await backend.store.swap(rid(), 0, "x", event(1), listed=False) == Swapped(False)
    assert await backend.store.events_since(room, 0) == [event(1)]  # the log: bare events
    message = await asyncio.wait_for(subscription.get(), 10)
    # A network store frames the event with the room (for other workers' caches); the
    # memory store is one process, whose service caches what it commits itself.
    assert message == event(1) if backend.store.name == "memory" else framed(1, event(1), "v1")
    await subscription.close()


# -- the hub strips the room ---------------------------------------------------------------


async def test_the_hub_hands_listeners_the_bare_event_and_the_cache_the_room() -> None:
    bus, cache = MemoryBus(), RoomCache()
    hub = Hub(bus, cache)
    got: list[tuple[int, str]] = []
    heard: list[float | None] = []
    hub.on_due = lambda room_id, due: heard.append(due)

    class Listener:
        def deliver(self, version: int, text: str) -> None:
            got.append((version, text))

    await hub.attach("room", Listener())
    await bus.publish("room", framed(1, event(1), "room at 1"))
    await bus.publish("room", "#2\nnot framed")  # malformed: dropped, nothing breaks
    await bus.publish("room", event(3))  # a bare event (a resync, an older worker) still works
    await eventually(lambda: len(got) == 2, "the two well-formed events delivered")
    assert got == [(1, event(1)), (3, event(3))]
    assert heard == [None, None]  # both events heard (neither has a due)
    assert held(cache.get("room")) == StoredRoom(1, "room at 1")
    await hub.close()


# -- round trips per command ---------------------------------------------------------------


async def _seated(service: RoomService) -> str:
    """A room with both seats taken: version 2."""
    room = await service.create(Rules(), public=False)
    await service.execute(room.room_id, Join("x", Role.PLAYER, "X"))
    await service.execute(room.room_id, Join("o", Role.PLAYER, "O"))
    return room.room_id


_GAME = [("x", 0, 0), ("o", 1, 0), ("x", 0, 1), ("o", 1, 1), ("x", 0, 2)]  # X wins


async def test_one_round_trip_per_committed_move_on_one_worker() -> None:
    store = Counted(MemoryStore())
    service = RoomService(store)
    room_id = await _seated(service)
    store.calls.clear()
    version = 2
    for conn, col, row in _GAME:
        executed = await service.execute(
            room_id, PlayMove(conn, MoveRequest(col=col, row=row), version, f"{conn}{col}{row}")
        )
        version = executed.room.version
    assert store.calls == {"swap": len(_GAME)}  # no load: the copy is the service's own
    assert service.conflicts == 0
    assert (await service.load(room_id)).game.is_over


async def test_a_stale_copy_costs_one_more_round_trip_never_a_wrong_commit() -> None:
    """Two services on one memory store (like two workers whose bus says nothing), moves
    alternating: each move reaches a copy one version behind. A move names the version it
    was made against, so on the stale copy it looks "ahead of the game": it is checked
    again on a load and lands (load + swap). A command without a version (a spectator
    joining) is accepted on the stale copy, refused by the store's compare-and-set, and
    lands on the room the refusal brought back (two swaps, no load)."""
    shared = MemoryStore()
    stores = [Counted(shared), Counted(shared)]
    services = [RoomService(store) for store in stores]
    room_id = await _seated(services[0])
    await services[1].load(room_id)  # worker 2 has a copy, at version 2
    version = 2
    for index, (conn, col, row) in enumerate(_GAME[:4]):
        for store in stores:
            store.calls.clear()
        executed = await services[index % 2].execute(
            room_id, PlayMove(conn, MoveRequest(col=col, row=row), version, f"{conn}{col}{row}")
        )
        version = executed.room.version
        assert stores[index % 2].calls == ({"swap": 1} if index == 0 else {"load": 1, "swap": 1})
    stores[0].calls.clear()
    executed = await services[0].execute(room_id, Join("watcher", Role.SPECTATOR))
    assert stores[0].calls == {"swap": 2} and services[0].conflicts == 1
    final = await services[1].load(room_id)
    assert final.version == executed.room.version == 7 and final.spectators == ["watcher"]
    assert final.game.ply == 4


async def test_a_refusal_is_only_given_against_the_store_s_room() -> None:
    """Worker 2's copy is behind: a move made against the newer version looks "ahead of the
    game" there; it is checked again on a load and lands. A move that is really refused
    is refused against the store's room, not the copy."""
    shared = MemoryStore()
    one, two = RoomService(shared), RoomService(Counted(shared))
    room_id = await _seated(one)
    await two.load(room_id)
    await one.execute(room_id, PlayMove("x", MoveRequest(col=0, row=0), 2, "x00"))
    counted = two.store
    assert isinstance(counted, Counted)
    counted.calls.clear()
    executed = await two.execute(room_id, PlayMove("o", MoveRequest(col=1, row=0), 3, "o10"))
    assert executed.room.version == 4
    assert counted.calls == {"load": 1, "swap": 1}
    await one.execute(room_id, PlayMove("x", MoveRequest(col=0, row=1), 4, "x01"))
    counted.calls.clear()
    with pytest.raises(RoomError) as info:  # occupied, on the store's room (version 5)
        await two.execute(room_id, PlayMove("o", MoveRequest(col=0, row=1), 5, "o01"))
    assert info.value.code.value == "occupied" and counted.calls == {"load": 1}


# -- two workers on Redis: the bus keeps both copies current -------------------------------


@pytest.fixture
async def two_workers(redis_url: str) -> AsyncIterator[list[tuple[Backend, RoomService, Hub]]]:
    prefix = "cache" + secrets.token_hex(3)
    workers = []
    for _ in range(2):
        backend = open_backend(f"{redis_url}?prefix={prefix}", BackendOptions())
        await backend.open()
        service = RoomService(Counted(backend.store))
        workers.append((backend, service, Hub(backend.bus, service.cache)))
    try:
        yield workers
    finally:
        for backend, _, hub in workers:
            await hub.close()
            await backend.close()


@pytest.mark.redis
async def test_two_workers_one_round_trip_per_move_in_the_steady_state(
    two_workers: list[tuple[Backend, RoomService, Hub]],
) -> None:
    """X on worker 1, O on worker 2, a spectator's feed on each: every move is ONE swap on
    the worker that makes it (its copy was brought forward by the bus), and each listener
    gets the bare events. Then worker 2's copy is made stale (its bus subscription gone):
    the next move there costs two swaps, still no load, and lands once."""
    (_, one, hub_one), (_, two, hub_two) = two_workers
    room_id = await _seated(one)
    sent: list[list[str]] = [[], []]
    feeds = []
    for index, (service, hub) in enumerate(((one, hub_one), (two, hub_two))):
        feed = Feed(room_id, service, sent[index].append)
        await hub.attach(room_id, feed)
        joined = await service.execute(room_id, Join(f"s{index}", Role.SPECTATOR))
        feed.start(joined.room.version)
        feeds.append(feed)
    await eventually(lambda: feeds[0].version == feeds[1].version == 4, "both feeds at version 4")
    counts: list[Counted] = []
    for store in (one.store, two.store):
        assert isinstance(store, Counted)
        store.calls.clear()
        counts.append(store)
    for texts in sent:
        texts.clear()
    version = 4
    for index, (conn, col, row) in enumerate(_GAME[:4]):
        service = (one, two)[index % 2]
        executed = await service.execute(
            room_id, PlayMove(conn, MoveRequest(col=col, row=row), version, f"{conn}{col}{row}")
        )
        version = executed.room.version
        await eventually(  # the players see the event before they move again
            lambda version=version: feeds[0].version == feeds[1].version == version,
            f"both feeds at version {version}",
        )
    assert [store.calls for store in counts] == [{"swap": 2}, {"swap": 2}]
    assert one.conflicts == two.conflicts == 0
    for texts in sent:
        assert [event_version(text) for text in texts] == [5, 6, 7, 8]
        assert all(text.startswith("{") for text in texts)  # never the room text
    # The stale case: worker 2 stops listening, worker 1 moves, then on worker 2 a move
    # (checked again on a load: load + swap) and a spectator (refused once: two swaps).
    await hub_two.detach(room_id, feeds[1])
    stale = counts[1]
    assert isinstance(stale, Counted)
    stale.calls.clear()
    await one.execute(room_id, PlayMove("x", MoveRequest(col=2, row=2), version, "x22"))
    executed = await two.execute(
        room_id, PlayMove("o", MoveRequest(col=1, row=2), version + 1, "o12")
    )
    assert executed.room.version == version + 2 and stale.calls == {"load": 1, "swap": 1}
    await one.execute(room_id, Join("late", Role.SPECTATOR))
    stale.calls.clear()
    executed = await two.execute(room_id, Join("later", Role.SPECTATOR))
    assert executed.room.version == version + 4
    assert stale.calls == {"swap": 2} and two.conflicts == 1
    feeds[0].close()
    await hub_one.detach(room_id, feeds[0])
