"""Whether a commit finishes the room: the service says so (``finished``), so the Redis store
does not parse the event to learn it; other callers still get it from the event's status."""

from __future__ import annotations

import pytest

from core import MoveRequest, Rules
from rooms import Role, RoomService
from rooms.backends import MemoryStore, StoredRoom, Swapped
from rooms.backends.redis.store import RedisStore, _finished_flag
from rooms.room import Join, PlayMove
from tests.support.backends import BackendMaker, event
from tests.support.counting import count_calls
from tests.support.redis_server import RedisServer


def test_the_flag_is_the_callers_else_the_events_status() -> None:
    assert _finished_flag(event(1, status="finished"), None) == b"1"
    assert _finished_flag(event(1, status="playing"), None) == b"0"
    assert _finished_flag(event(1, status="waiting"), None) == b"0"
    assert _finished_flag(event(1), None) == b""  # no status: keep the stored flag
    assert _finished_flag(event(1, status=None), None) == b""
    assert _finished_flag("not json", None) == b""
    assert _finished_flag("[1]", None) == b""
    # Said by the caller: the event is not even looked at.
    assert _finished_flag(event(1, status="playing"), True) == b"1"
    assert _finished_flag(event(1), True) == b"1"
    assert _finished_flag(event(1, status="finished"), False) == b"0"
    assert _finished_flag("not json", False) == b"0"


async def test_the_memory_store_takes_the_flag_too() -> None:
    store = MemoryStore()
    assert await store.create("roommem1", "v0", listed=False)
    assert await store.swap("roommem1", 0, "v1", event(1), listed=False, finished=True) == (
        Swapped(True)
    )
    assert await store.commit("roommem1", 1, "v2", event(2), listed=False, finished=False)
    assert await store.load("roommem1") == StoredRoom(2, "v2")


@pytest.mark.redis
async def test_a_game_played_through_the_service_never_parses_an_event_to_commit(
    maker: BackendMaker, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rooms.backends.redis.store

    parses = count_calls(monkeypatch, rooms.backends.redis.store, "loads")
    store = (await maker.make(room_ttl=3600.0, finished_ttl=600.0)).store
    assert isinstance(store, RedisStore)
    service = RoomService(store)
    room = await service.create(Rules(), public=True)
    keys = store.layout.room(room.room_id)
    sync = redis_server.client()
    version = (await service.execute(room.room_id, Join("x", Role.PLAYER, "X"))).room.version
    version = (await service.execute(room.room_id, Join("o", Role.PLAYER, "O"))).room.version
    for mark, col, row in (("x", 0, 0), ("o", 1, 0), ("x", 0, 1), ("o", 1, 1)):
        move = PlayMove(mark, MoveRequest(col=col, row=row), version, f"{mark}{col}{row}")
        version = (await service.execute(room.room_id, move)).room.version
    assert sync.hget(keys.room, "f") == "0"
    assert 3_500_000 < sync.pttl(keys.room) <= 3_600_000
    won = await service.execute(
        room.room_id, PlayMove("x", MoveRequest(col=0, row=2), version, "x02")
    )
    assert won.room.game.is_over
    assert sync.hget(keys.room, "f") == "1"
    assert 500_000 < sync.pttl(keys.room) <= 600_000  # kept for the finished time
    # A later event without a status (a spectator) keeps it finished, as the room is.
    await service.execute(room.room_id, Join("s", Role.SPECTATOR))
    assert sync.hget(keys.room, "f") == "1"
    assert parses.calls == 0
    # Another caller of commit, without the flag, still gets it from the event.
    assert await store.commit(
        room.room_id, won.room.version + 1, "v", event(9, status="playing"), listed=False
    )
    assert sync.hget(keys.room, "f") == "0" and parses.calls == 1
