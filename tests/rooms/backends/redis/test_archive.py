"""A room's archive of earlier games is kept apart in Redis (field ``g``) and travels only
when it changes: a move sends, stores and publishes the room's object alone; the other
worker's cache puts its own copy of the archive back; a rematch ships the new archive
once; rooms stored whole (earlier workers) move their archive out at their first commit.

Counted, never timed: the arguments of the commit script, the bus messages, the fields in
Redis, the store calls of each worker."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest

from core import MoveRequest, Rules
from rooms import Hub, Role, RoomService
from rooms.backends import StoredRoom
from rooms.backends.redis.archive import commit_parts, whole
from rooms.backends.redis.scripts import CommitArgs
from rooms.backends.redis.store import RedisStore
from rooms.backends.store import Frame, framed, framed_head, unframe
from rooms.cache import RoomCache
from rooms.common.jsontext import dumps, loads
from rooms.protocol.codec import decode_room, encode_room, game_number_of
from rooms.room import Join, PlayMove, Rematch
from tests.support.backends import BackendMaker
from tests.support.redis_server import RedisServer
from tests.support.waiting import eventually

WIN = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]  # whoever moves first wins


# -- pure pieces -----------------------------------------------------------------------------


def _room_with_games(games: int) -> tuple[str, int]:
    """The text of a room after ``games`` rematches (played on one service, in memory)."""
    from rooms.backends import MemoryStore

    async def play() -> tuple[str, int]:
        service = RoomService(MemoryStore())
        room_id = await _seated(service)
        version = 2
        for game in range(games):
            version = await _game(service, service, room_id, version, game)
            version = await _rematch(service, service, room_id)
        stored = await service.store.load(room_id)
        assert stored is not None
        return stored.data, stored.version

    return asyncio.run(play())


def test_the_game_number_is_read_off_the_room_s_object_and_nothing_else_passes() -> None:
    text, _ = _room_with_games(2)
    head, _, archive = text.partition("\n")
    assert game_number_of(text) == game_number_of(head) == decode_room(text).game_number == 3
    assert archive.startswith("[") and archive.endswith("\n]")
    data = loads(head)
    for other in (
        "v1",
        "",
        "{}",
        head.replace('"format":2', '"format":1'),
        dumps({**data, "game_number": "3"}),
        head[:-1],
        head + " ",
    ):
        assert game_number_of(other) is None
    # a name that looks like the ending changes nothing: the last member is read
    seats = [{**data["seats"][0], "name": ',"game_number":9}'}, *data["seats"][1:]]
    assert game_number_of(dumps({**data, "seats": seats})) == 3


def test_the_commit_sends_the_archive_only_when_it_changed_or_cannot_be_named() -> None:
    text, _ = _room_with_games(1)
    head, _, archive = text.partition("\n")
    assert commit_parts(text, False) == (head, archive, b"")
    assert commit_parts(text, True) == (head, "", b"2")
    assert commit_parts(head, True) == (head, "", b"")  # no archive: nothing to keep
    assert commit_parts("v1\n[x]", True) == ("v1", "[x]", b"")  # no game number: sent
    assert whole(head.encode(), archive.encode()) == text
    assert whole(head, None) == head
    assert whole(text, "[stale]") == text  # written whole: its own archive wins


def test_frames_say_whether_the_archive_was_left_out() -> None:
    assert unframe(framed(5, "{}", "a\nb")) == Frame(5, "{}", "a\nb")
    assert unframe(framed_head(5, 2, "{}", "a")) == Frame(5, "{}", "a", 2)


def test_the_cache_puts_back_the_archive_of_the_same_game_only() -> None:
    text, version = _room_with_games(2)
    head, _, archive = text.partition("\n")
    later = head.replace(f'"version":{version},', f'"version":{version + 1},')
    for room in (None, decode_room(text)):  # a copy decoded or not: the same answer
        cache = RoomCache()
        cache.offer("r", version, text, room)
        rebuilt = cache.offer_head("r", version + 1, later, 3)
        assert rebuilt is not None and rebuilt.data == f"{later}\n{archive}"
        assert rebuilt.room is None  # decoded by the next command that needs it
        assert cache.offer_head("r", version, "older", 3) is rebuilt  # older: ignored
        cache.offer("r", version, text, room)  # (ignored: older than the held copy)
        cache.put("r", StoredRoom(version, text))
        assert cache.offer_head("r", version + 1, later, 2) is None  # another game: dropped
        assert "r" not in cache
    cache = RoomCache()
    assert cache.offer_head("r", 9, later, 3) is None and "r" not in cache  # none held
    cache.offer("r", 1, "v1")  # a text whose game nobody can tell
    assert cache.offer_head("r", 2, later, 3) is None and "r" not in cache
    first, _ = _room_with_games(0)  # game 1, no archive: nothing to put back
    cache.offer("r", 2, first)
    assert cache.offer_head("r", 3, later, 1) is None and "r" not in cache
    assert RoomCache(size=0).offer_head("r", 3, later, 3) is None


# -- on Redis: two workers -------------------------------------------------------------------


async def _seated(service: RoomService) -> str:
    room = await service.create(Rules(), public=True)
    await service.execute(room.room_id, Join("x", Role.PLAYER, "X"))
    await service.execute(room.room_id, Join("o", Role.PLAYER, "O"))
    return room.room_id


async def _game(
    one: RoomService,
    two: RoomService,
    room_id: str,
    version: int,
    game: int,
    moves: int = 5,
    start: int = 0,
) -> int:
    """Moves ``start`` to ``moves`` of game ``game`` (0-based): x on ``one``, o on ``two``,
    the first mover alternating (the marks swap at each rematch)."""
    order = ["x", "o"] if game % 2 == 0 else ["o", "x"]
    for ply, (col, row) in list(enumerate(WIN[:moves]))[start:]:
        conn = order[ply % 2]
        service = one if conn == "x" else two
        move = PlayMove(conn, MoveRequest(col=col, row=row), version, f"{conn}{game}.{ply}")
        version = (await service.execute(room_id, move)).room.version
    return version


async def _rematch(one: RoomService, two: RoomService, room_id: str) -> int:
    await one.execute(room_id, Rematch("x"))
    return (await two.execute(room_id, Rematch("o"))).room.version


class Calls:
    """Counts a worker's store calls and keeps the arguments of its commit scripts."""

    def __init__(self, store: RedisStore) -> None:
        self.counts: Counter[str] = Counter()
        self.scripts: list[CommitArgs] = []
        for name in ("load", "swap"):
            real = getattr(store, name)

            async def counted(
                *args: Any, _real: Any = real, _name: str = name, **kwargs: Any
            ) -> Any:
                self.counts[_name] += 1
                return await _real(*args, **kwargs)

            setattr(store, name, counted)
        real_script = store.calls.script

        async def script(lua: Any, keys: list[Any], args: list[Any]) -> Any:
            self.scripts.append(CommitArgs.read(list(keys), list(args)))
            return await real_script(lua, keys, args)

        store.calls.script = script  # type: ignore[method-assign, assignment]


def _field(client: Any, key: str, name: str) -> str:
    """A field of a room's hash as text (empty when absent)."""
    value = client.hget(key, name)
    return "" if value is None else str(value)


class Heard:
    def __init__(self) -> None:
        self.version = 0

    def deliver(self, version: int, text: str) -> None:
        self.version = max(self.version, version)


@pytest.fixture
async def workers(maker: BackendMaker) -> AsyncIterator[list[Any]]:
    made = []
    for _ in range(2):
        pair = await maker.make()
        assert isinstance(pair.store, RedisStore)
        service = RoomService(pair.store)
        made.append((pair, service, Hub(pair.bus, service.cache), Heard()))
    try:
        yield made
    finally:
        for _, _, hub, _ in made:
            await hub.close()


async def _caught_up(workers: list[Any], version: int) -> None:
    await eventually(
        lambda: all(heard.version >= version for *_, heard in workers),
        f"the bus bringing version {version} to every worker",
    )


@pytest.mark.redis
async def test_a_move_in_a_rematch_series_sends_and_publishes_the_room_without_its_archive(
    workers: list[Any], redis_server: RedisServer
) -> None:
    (pair_one, one, hub_one, heard_one), (pair_two, two, hub_two, heard_two) = workers
    room_id = await _seated(one)
    for hub, heard in ((hub_one, heard_one), (hub_two, heard_two)):
        await hub.attach(room_id, heard)
    listener = await pair_one.bus.subscribe(room_id)  # the raw bus messages
    version = 2
    for game in range(3):
        version = await _game(one, two, room_id, version, game)
        version = await _rematch(one, two, room_id)
        await _caught_up(workers, version)
    sync = redis_server.client()
    keys = pair_one.store.layout.room(room_id)
    archive = _field(sync, keys.room, "g")
    assert archive.count("\n") == 3  # three records, one a line
    assert "\n" not in _field(sync, keys.room, "d")
    while True:  # what was published so far
        try:
            await asyncio.wait_for(listener.get(), 0.05)
        except TimeoutError:
            break
    calls = [Calls(pair_one.store), Calls(pair_two.store)]
    before = sync.info("stats")["total_net_input_bytes"]
    version = await _game(one, two, room_id, version, 3, moves=1)
    await _caught_up(workers, version)  # the second worker's copy is current: no refusal
    version = await _game(one, two, room_id, version, 3, moves=2, start=1)
    sent = sync.info("stats")["total_net_input_bytes"] - before
    await _caught_up(workers, version)
    # Each move: one swap on its worker, no load, and the script got no archive.
    assert [c.counts for c in calls] == [{"swap": 1}, {"swap": 1}]
    for args in (c.scripts[0] for c in calls):
        assert args.archive == "" and args.keep == b"4"  # no archive; keep game 4's
        assert "\n" not in args.head
    messages = [await asyncio.wait_for(listener.get(), 5) for _ in range(2)]
    frames = [unframe(message) for message in messages]
    assert [(f.version, f.archive_of) for f in frames if f] == [(version - 1, 4), (version, 4)]
    assert all(len(message) < len(archive) for message in messages)
    # Both workers' copies are the room as a load answers it, archive and all.
    loaded = await pair_one.store.load(room_id)
    assert loaded is not None and loaded.version == version
    assert loaded.data.endswith("\n" + archive)
    # Redis received less than the two room texts without one archive (the two moves'
    # scripts with their events, and the INFO call): the archive went with neither.
    assert sent < 2 * len(loaded.data) - len(archive)
    for service in (one, two):
        cached = service.cache.get(room_id)
        assert cached is not None and (cached.version, cached.data) == (loaded.version, loaded.data)
    # The rematch ships the new archive once: the vote that starts game 5, in the script
    # and on the bus; the next move goes without it again, and both copies follow.
    version = await _game(one, two, room_id, version, 3, moves=5)  # (game 4 from move 3)
    await _caught_up(workers, version)
    for c in calls:
        c.scripts.clear()
    version = await _rematch(one, two, room_id)
    await _caught_up(workers, version)
    shipped = [args for c in calls for args in c.scripts if args.archive]
    assert len(shipped) == 1 and shipped[0].keep == b""
    new_archive = _field(sync, keys.room, "g")
    assert shipped[0].archive == new_archive and new_archive.count("\n") == 4
    version = await _game(one, two, room_id, version, 4, moves=1)
    await _caught_up(workers, version)
    loaded = await pair_two.store.load(room_id)
    assert loaded is not None and loaded.data.endswith("\n" + new_archive)
    for service in (one, two):
        cached = service.cache.get(room_id)
        assert cached is not None and cached.data == loaded.data
    # The lobby lists the room from its object alone.
    listed = await one.list_public()
    assert [summary["room_id"] for summary in listed] == [room_id]
    await listener.close()


@pytest.mark.redis
async def test_a_copy_of_another_game_is_dropped_and_loaded_never_patched(
    workers: list[Any],
) -> None:
    (pair_one, one, hub_one, heard_one), (pair_two, two, hub_two, heard_two) = workers
    room_id = await _seated(one)
    for hub, heard in ((hub_one, heard_one), (hub_two, heard_two)):
        await hub.attach(room_id, heard)
    version = await _game(one, two, room_id, 2, 0)
    version = await _rematch(one, two, room_id)
    await _caught_up(workers, version)
    old_game = two.cache.get(room_id)
    assert old_game is not None and game_number_of(old_game.data) == 2
    version = await _game(one, two, room_id, version, 1)
    version = await _rematch(one, two, room_id)
    await _caught_up(workers, version)
    # Worker two holds game 2's room again, one version behind (as if it had missed the
    # rematch); worker one's move of game 3 leaves the archive out: two cannot patch it.
    two.cache.put(room_id, StoredRoom(version - 1, old_game.data))
    calls, conflicts = Calls(pair_two.store), two.conflicts  # (the votes may have raced)
    version = await _game(one, two, room_id, version, 2, moves=1)
    await _caught_up(workers, version)
    assert room_id not in two.cache
    version = await _game(one, two, room_id, version - 1, 2, moves=2)  # o's move, on two
    assert calls.counts == {"load": 1, "swap": 1} and two.conflicts == conflicts
    loaded = await pair_one.store.load(room_id)
    cached = two.cache.get(room_id)
    assert loaded is not None and cached is not None and cached.data == loaded.data
    assert decode_room(loaded.data).game_number == 3 and len(decode_room(loaded.data).games) == 2


@pytest.mark.redis
@pytest.mark.parametrize("stored_as", [2, 1])
async def test_a_room_stored_whole_moves_its_archive_out_at_its_first_commit(
    workers: list[Any], redis_server: RedisServer, stored_as: int
) -> None:
    """Written by a worker from before ``g`` (format 2: ``d`` holds the archive after a
    newline; format 1: the games inline in the object): it loads as it was, the first
    commit that keeps the archive stores it apart, and it loads the same afterwards."""
    (pair_one, one, *_), (pair_two, two, *_) = workers
    room_id = await _seated(one)
    version = await _game(one, two, room_id, 2, 0)
    version = await _rematch(one, two, room_id)
    text = (await pair_one.store.load(room_id) or StoredRoom(0, "")).data
    room = decode_room(text)
    if stored_as == 1:
        data = loads(text.partition("\n")[0])
        whole_text = dumps({**data, "format": 1, "games": list(room.games)})
    else:
        whole_text = text
    sync = redis_server.client()
    keys = pair_one.store.layout.room(room_id)
    sync.hset(keys.room, "d", whole_text)
    sync.hdel(keys.room, "g")
    stale = RoomService(pair_two.store)  # a worker with nothing cached: it loads
    assert (await pair_two.store.load(room_id) or StoredRoom(0, "")).data == whole_text
    calls = Calls(pair_two.store)
    move = PlayMove("o", MoveRequest(col=0, row=0), version, "o-first")
    moved = await stale.execute(room_id, move)
    assert moved.room.version == version + 1 and len(moved.room.games) == 1
    assert calls.counts == {"load": 1, "swap": 1}
    assert len(calls.scripts) == (1 if stored_as == 2 else 2)  # format 1: sent again whole
    archive = _field(sync, keys.room, "g")
    assert archive == room.games.text if stored_as == 2 else archive != ""
    assert "\n" not in _field(sync, keys.room, "d")
    loaded = await pair_one.store.load(room_id)
    assert loaded is not None and loaded.data == encode_room(moved.room)
    twin = decode_room(loaded.data)
    assert list(twin.games) == list(room.games) and twin.version == version + 1
