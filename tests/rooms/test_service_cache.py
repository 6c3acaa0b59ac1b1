"""The service keeps decoded rooms in its cache: a command neither decodes nor replays the
room it works on, and works on a copy, so a refusal or a lost race never changes the
cached room and a room once handed out never changes.

Decodes are counted by wrapping the real ``decode_room`` the service calls; store round
trips by a MemoryStore that counts its loads."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from core import MoveRequest, Rules
from rooms import ErrorCode, Role, Room, RoomError, RoomService
from rooms import service as service_module
from rooms.backends import MemoryStore, StoredRoom
from rooms.cache import CachedRoom, RoomCache
from rooms.protocol import decode_room, encode_room
from rooms.room import Join, Leave, PlayMove


class LoadCounting(MemoryStore):
    loads = 0

    async def load(self, room_id: str) -> StoredRoom | None:
        self.loads += 1
        return await super().load(room_id)


@pytest.fixture
def decodes(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], int]]:
    """How many rooms the service decoded since the test started."""
    count = 0

    def counting(text: str, base: Room | None = None) -> Room:
        nonlocal count
        count += 1
        return decode_room(text, base)

    monkeypatch.setattr(service_module, "decode_room", counting)
    yield lambda: count


async def seated(service: RoomService) -> str:
    room = await service.create(Rules(), public=False)
    await service.execute(room.room_id, Join("x", Role.PLAYER, "X"))
    await service.execute(room.room_id, Join("o", Role.PLAYER, "O"))
    return room.room_id


def move(conn: str, row: int, col: int, version: int) -> PlayMove:
    return PlayMove(conn, MoveRequest(col=col, row=row), version, f"{conn}{row}{col}")


def entry(service: RoomService, room_id: str) -> CachedRoom:
    cached = service.cache.get(room_id)
    assert cached is not None
    return cached


# -- the cache's entries -------------------------------------------------------------------


def test_an_entry_keeps_the_decoded_room_only_with_its_own_text() -> None:
    room = Room("room0001", Rules(), public=False, created=1.0)
    text = encode_room(room)
    cache = RoomCache()
    cache.offer("a", 0, text)  # from the bus: text only
    assert entry_room(cache, "a") is None
    cache.offer("a", 0, text, room)  # the same text, decoded by its commit: kept with it
    assert entry_room(cache, "a") is room
    cache.put("a", StoredRoom(0, text))  # the store says the same: the room stays
    assert entry_room(cache, "a") is room
    cache.put("a", StoredRoom(0, text + " "))  # same version, other text: the store wins
    assert entry_room(cache, "a") is None
    cache.offer("a", 1, "newer")
    assert entry_room(cache, "a") is None
    detached = RoomCache(size=0).put("a", StoredRoom(3, text))
    assert (detached.version, detached.data, detached.room) == (3, text, None)


def entry_room(cache: RoomCache, room_id: str) -> Room | None:
    cached = cache.get(room_id)
    assert cached is not None
    return cached.room


# -- the service ---------------------------------------------------------------------------


async def test_a_command_decodes_nothing_in_the_steady_state(
    decodes: Callable[[], int],
) -> None:
    store = LoadCounting()
    service = RoomService(store)
    room_id = await seated(service)
    version = 2
    for ply, (row, col) in enumerate([(0, 0), (1, 1), (0, 1), (2, 2)]):
        executed = await service.execute(room_id, move("xo"[ply % 2], row, col, version))
        version = executed.room.version
    await service.execute(room_id, Join("s", Role.SPECTATOR))
    executed = await service.execute(room_id, Leave("s"))
    assert decodes() == 0 and store.loads == 0
    assert entry(service, room_id).room is executed.room
    loaded = await service.load(room_id)  # the store's text is the one held: not decoded
    assert loaded is executed.room and decodes() == 0 and store.loads == 1
    # The memory store still keeps the encoded room: another service decodes the same.
    other = await RoomService(store).load(room_id)
    assert encode_room(other) == encode_room(loaded) and other.game.ply == 4


async def test_refusals_and_lost_races_leave_the_cached_room_and_handed_out_rooms_alone(
    decodes: Callable[[], int],
) -> None:
    store = MemoryStore()
    one, two = RoomService(store), RoomService(store)
    room_id = await seated(one)
    handed: list[tuple[Room, str]] = []

    def keep(room: Room) -> Room:
        handed.append((room, encode_room(room)))
        return room

    first = keep((await one.execute(room_id, move("x", 1, 1, 2))).room)
    with pytest.raises(RoomError) as info:  # refused on the store's room (checked again)
        await one.execute(room_id, move("o", 1, 1, 3))
    assert info.value.code is ErrorCode.OCCUPIED
    assert entry(one, room_id).room is first and decodes() == 0
    # Another worker changes the room: this worker's copy is stale. A spectator's join is
    # accepted on the copy, refused by the compare-and-set, and lands on the store's room
    # (decoded once: it is not the text this worker built).
    keep(await two.load(room_id))
    keep((await two.execute(room_id, Join("s1", Role.SPECTATOR))).room)
    before = decodes()
    joined = keep((await one.execute(room_id, Join("s2", Role.SPECTATOR))).room)
    assert one.conflicts == 1 and decodes() == before + 1
    assert joined.spectators == ["s1", "s2"] and joined.version == 5
    keep((await one.execute(room_id, move("o", 0, 0, 3))).room)
    with pytest.raises(RoomError):
        await one.execute(room_id, move("x", 0, 0, 6))
    for room, text in handed:
        assert encode_room(room) == text  # never changed after it was handed out
    assert first.game.ply == 1 and first.spectators == []


async def test_a_room_text_from_the_bus_is_decoded_once_by_the_next_command(
    decodes: Callable[[], int],
) -> None:
    """As rooms.fanout.hub does with another worker's framed commit: the text is offered to the
    cache without a room; the next command decodes it (no load: one round trip) and the
    room it commits is kept decoded for the command after."""
    store = LoadCounting()
    one, two = RoomService(store), RoomService(store)
    room_id = await seated(one)
    await two.execute(room_id, move("x", 1, 1, 2))
    stored = await store.load(room_id)
    assert stored is not None
    one.cache.offer(room_id, stored.version, stored.data)
    store.loads = 0
    before = decodes()
    await one.execute(room_id, move("o", 0, 0, 3))
    assert decodes() == before + 1 and store.loads == 0
    await one.execute(room_id, move("x", 2, 2, 4))
    assert decodes() == before + 1 and one.conflicts == 0


async def test_without_a_cache_every_command_decodes_and_still_lands(
    decodes: Callable[[], int],
) -> None:
    service = RoomService(MemoryStore(), cache=RoomCache(size=0))
    room_id = await seated(service)
    executed = await service.execute(room_id, move("x", 1, 1, 2))
    assert executed.room.game.ply == 1 and decodes() == 3  # the two joins and the move


async def test_a_corrupted_stored_room_is_refused_as_before() -> None:
    store = MemoryStore()
    service = RoomService(store)
    room_id = await seated(service)
    stored = await store.load(room_id)
    assert stored is not None
    broken = stored.data.replace('"moves":[]', '"moves":[0,0]', 1)
    assert broken != stored.data
    assert await store.commit(room_id, stored.version, broken, "{}", listed=False)
    fresh = RoomService(store)
    for attempt in (fresh.load(room_id), fresh.execute(room_id, Join("s", Role.SPECTATOR))):
        with pytest.raises(RoomError) as info:
            await attempt
        assert info.value.code is ErrorCode.INTERNAL_ERROR
    # The service that cached the good text is refused too once the store says otherwise.
    with pytest.raises(RoomError) as info:
        await service.load(room_id)
    assert info.value.code is ErrorCode.INTERNAL_ERROR
