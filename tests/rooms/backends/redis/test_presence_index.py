"""A worker's index of rooms changed by the rooms' own commits on one Redis
(rooms.backends.index, rooms.presence.rooms): a join indexes its room in its commit, the
last local departure unindexes it in its commit, and nothing is sent apart. The two change
in one step or not at all, so whatever the crash or the lost answer, a room where a commit
recorded a connection of a worker is in that worker's index, and the sweep of the dead
worker finds it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from core import Rules
from rooms import (
    ErrorCode,
    LeaseLost,
    Presence,
    Role,
    RoomError,
    RoomService,
    Sweeper,
)
from rooms.backends import MemoryRegistry, MemoryStore, Swapped
from rooms.backends.redis.cluster.pair import make_cluster_client, parse_cluster_url
from rooms.backends.redis.cluster.store import RedisClusterStore
from rooms.backends.redis.connect import RedisOptions
from rooms.backends.redis.presence import KEEP_MS, RedisRegistry
from rooms.backends.redis.scripts import CommitArgs
from rooms.backends.redis.store import RedisStore
from rooms.common.jsontext import dumps, loads
from rooms.room import Join
from tests.rooms.backends.redis.test_archive import _field, _game, _rematch, _seated
from tests.support.backends import registry_for
from tests.support.redis_server import RedisServer
from tests.support.waiting import eventually

pytestmark = pytest.mark.redis

TTL = 0.6  # a crashed worker's lease is gone after this long
WAIT = 20.0  # a bound against hangs, never a measurement


class LostAnswers(RedisStore):
    """A Redis store whose next ``swap``s land but answer as a timed-out Redis does."""

    lose = 0

    async def swap(self, *args: Any, **kwargs: Any) -> Swapped:
        swapped = await super().swap(*args, **kwargs)
        if self.lose:
            self.lose -= 1
            raise RoomError(ErrorCode.UNAVAILABLE, "the room store did not answer in time")
        return swapped


@dataclass
class Worker:
    service: RoomService
    presence: Presence
    registry: RedisRegistry
    apart: list[str]  # what the presence sent apart: "add" and "remove" calls


@pytest.fixture
async def workers(redis_server: RedisServer) -> AsyncIterator[Any]:
    made: list[tuple[Worker, RedisStore]] = []

    async def make(store_class: type[RedisStore] = RedisStore) -> Worker:
        store = store_class(redis_server.url, prefix="fold")
        await store.open()
        registry = registry_for(f"{redis_server.url}?prefix=fold")
        assert isinstance(registry, RedisRegistry)
        await registry.open()
        service = RoomService(store)
        presence = Presence(registry, service, ttl=TTL)
        await presence.start()
        apart: list[str] = []
        add, remove = registry.add_room, registry.remove_room

        async def counted_add(worker: str, room_id: str) -> bool:
            apart.append("add")
            return await add(worker, room_id)

        async def counted_remove(worker: str, room_id: str) -> None:
            apart.append("remove")
            await remove(worker, room_id)

        registry.add_room = counted_add  # type: ignore[method-assign]
        registry.remove_room = counted_remove  # type: ignore[method-assign]
        worker = Worker(service, presence, registry, apart)
        made.append((worker, store))
        return worker

    yield make
    for worker, store in made:
        await worker.presence.close()
        await worker.registry.close()
        await store.close()


async def indexed(worker: Worker, worker_id: str | None = None) -> list[str]:
    return sorted(await worker.registry.rooms(worker_id or worker.presence.worker, 100))


def test_the_registry_folds_into_a_store_on_its_own_redis_only(
    redis_server: RedisServer,
) -> None:
    registry = registry_for(redis_server.url)
    assert isinstance(registry, RedisRegistry)
    other_db = redis_server.url.rsplit("/", 1)[0] + "/1"
    assert registry.folds_into(RedisStore(f"{redis_server.url}?prefix=another"))  # any prefix
    assert not registry.folds_into(RedisStore(other_db))
    assert not registry.folds_into(MemoryStore())
    assert not MemoryRegistry().folds_into(RedisStore(redis_server.url))
    # A Cluster keeps a worker's index and a room on different slots: never folded.
    cluster_url = f"redis+cluster://127.0.0.1:{redis_server.port}"
    cluster = RedisClusterStore(make_cluster_client(parse_cluster_url(cluster_url), RedisOptions()))
    assert not registry.folds_into(cluster)
    cluster_registry = registry_for(cluster_url)
    assert isinstance(cluster_registry, RedisRegistry)
    assert not cluster_registry.folds_into(RedisStore(redis_server.url))


async def test_joins_index_and_the_last_departure_unindexes_in_their_commits(
    workers: Any,
) -> None:
    worker: Worker = await workers()
    room = await worker.service.create(Rules(), public=False)
    player, watcher = worker.presence.connection_id(), worker.presence.connection_id()
    executed = await worker.presence.join(room.room_id, Join(player, Role.PLAYER), lambda: None)
    assert executed.room.seats[0].connections == [player]
    assert await indexed(worker) == [room.room_id]
    await worker.presence.join(room.room_id, Join(watcher, Role.SPECTATOR), lambda: None)
    assert await worker.presence.leave(room.room_id, player)
    assert await indexed(worker) == [room.room_id], "a local connection is still there"
    assert await worker.presence.leave(room.room_id, watcher)
    assert await indexed(worker) == []
    loaded = await worker.service.load(room.room_id)
    assert not loaded.seats[0].connections and loaded.spectators == []
    assert worker.apart == [], "nothing sent apart from the commits"


async def test_a_join_under_a_lease_that_is_gone_records_nothing(workers: Any) -> None:
    worker: Worker = await workers()
    room = await worker.service.create(Rules(), public=False)
    old = worker.presence.worker
    conn = worker.presence.connection_id()
    await worker.registry.release(old)  # gone in Redis; the heartbeat has not noticed yet
    assert worker.presence.alive
    with pytest.raises(LeaseLost):
        await worker.presence.join(room.room_id, Join(conn, Role.PLAYER), lambda: None)
    loaded = await worker.service.load(room.room_id)
    assert loaded.version == 0 and loaded.seats == []  # the commit was refused whole
    assert await indexed(worker, old) == []
    assert worker.presence.losses == 1 and worker.presence.worker != old
    assert worker.presence.pending() == 0


async def test_a_join_whose_answer_was_lost_records_its_departure(workers: Any) -> None:
    worker: Worker = await workers(LostAnswers)
    store = worker.service.store
    assert isinstance(store, LostAnswers)
    room = await worker.service.create(Rules(), public=False)
    conn = worker.presence.connection_id()
    store.lose = 1
    with pytest.raises(RoomError) as caught:
        await worker.presence.join(room.room_id, Join(conn, Role.SPECTATOR), lambda: None)
    assert caught.value.code is ErrorCode.UNAVAILABLE
    loaded = await worker.service.load(room.room_id)
    assert loaded.version == 2 and loaded.spectators == []  # landed, then left
    assert await indexed(worker) == []  # indexed and unindexed by those two commits
    assert worker.presence.pending() == 0


async def test_after_a_lost_unindexing_answer_the_next_join_indexes_again_and_a_crash_is_swept(
    workers: Any,
) -> None:
    dying: Worker = await workers(LostAnswers)
    sweeping: Worker = await workers()
    store = dying.service.store
    assert isinstance(store, LostAnswers)
    room = await dying.service.create(Rules(), public=False)
    first, second = dying.presence.connection_id(), dying.presence.connection_id()
    await dying.presence.join(room.room_id, Join(first, Role.SPECTATOR), lambda: None)
    store.lose = 1
    assert not await dying.presence.leave(room.room_id, first)  # landed; answer lost
    assert dying.presence.pending() == 1
    assert await indexed(dying) == []  # the departure and the unindexing landed together
    # Another local connection joins before the retry: its own commit indexes the room.
    await dying.presence.join(room.room_id, Join(second, Role.SPECTATOR), lambda: None)
    assert await indexed(dying) == [room.room_id]
    assert (await dying.service.load(room.room_id)).spectators == [second]
    await dying.presence.close(release=False)  # a crash: no heartbeat, no Leave
    sweeper = Sweeper(sweeping.registry, sweeping.service, sweeping.presence, interval=0.1)

    async def evicted() -> bool:
        if not (await sweeping.service.load(room.room_id)).spectators:
            return True
        await sweeper.sweep()
        return False

    await eventually(evicted, "the crashed worker's spectator evicted", timeout=WAIT)
    await sweeper.close()


async def test_the_index_change_rides_again_when_a_format_1_archive_is_sent_again(
    workers: Any, redis_server: RedisServer
) -> None:
    """A commit that keeps the archive of a room stored whole in format 1 (by a worker from
    before the archive's own field) is refused (nothing written) and sent again with the
    archive: the index change goes with it."""
    worker: Worker = await workers()
    service, store = worker.service, worker.service.store
    assert isinstance(store, RedisStore)
    room_id = await _seated(service)
    await _game(service, service, room_id, 2, 0)
    await _rematch(service, service, room_id)  # the room now has an archive
    text = (await service.load(room_id)).games.text
    stored = await store.load(room_id)
    assert stored is not None and text
    head = loads(stored.data.partition("\n")[0])
    keys = store.layout.room(room_id)
    sync = redis_server.client()
    sync.hset(keys.room, "d", dumps({**head, "format": 1, "games": loads(text)}))
    sync.hdel(keys.room, "g")  # same version: the worker's copy is still current
    scripts = count_calls_of(store, room_id)
    conn = worker.presence.connection_id()
    await worker.presence.join(room_id, Join(conn, Role.SPECTATOR), lambda: None)
    assert scripts == ["refused: no archive stored apart", "sent again with the archive"]
    assert (await service.load(room_id)).spectators == [conn]
    assert await indexed(worker) == [room_id]
    assert _field(sync, keys.room, "g") != ""


def count_calls_of(store: RedisStore, room_id: str) -> list[str]:
    """What each commit script call of ``store`` was, as it happens; each carries the
    index change (the worker's lease and index among its keys, ``a`` and the room)."""
    seen: list[str] = []
    real = store.calls.script

    async def script(lua: Any, keys: list[Any], args: list[Any]) -> Any:
        sent = CommitArgs.read(keys, args)
        assert sent.rooms.endswith(":rooms")
        assert (sent.index_change, sent.index_room, sent.index_keep) == (b"a", room_id, KEEP_MS)
        seen.append(
            "sent again with the archive" if sent.archive else "refused: no archive stored apart"
        )
        return await real(lua, keys, args)

    store.calls.script = script  # type: ignore[method-assign, assignment]
    return seen
