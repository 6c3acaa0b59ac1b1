"""The tournament shelf on every backend (memory, a real Redis, a real Redis Cluster): a
record is created once, each change is a compare-and-set on its version, and two services
racing (as two workers do) lose no change and repeat none."""

from __future__ import annotations

import asyncio
from functools import partial

import pytest

from rooms import Backend, ErrorCode, RoomError
from rooms.backends.redis.tournaments import RedisShelf
from rooms.tournaments import MemoryShelf, Status, TournamentRecord, TournamentService
from rooms.tournaments.shelf import TournamentShelf


def twin(backend: Backend) -> TournamentShelf:
    """A second shelf on the same storage, as another worker holds it."""
    if isinstance(backend.tournaments, MemoryShelf):
        return backend.tournaments
    return RedisShelf.of_store(backend.store)


def make(tournament_id: str, now: float) -> TournamentRecord:
    return TournamentRecord(
        id=tournament_id,
        name="Club night",
        creator="ada",
        rules={},
        time_control={"initial": 60.0, "increment": 0.0, "first_move": 10.0},
        max_players=16,
        public=True,
        created=now,
    )


async def test_create_load_and_compare_and_set(backend: Backend) -> None:
    shelf = backend.tournaments
    service = TournamentService(shelf)
    made = await service.create(make)
    assert await shelf.create(made) is False  # the id is taken
    loaded = await shelf.load(made.id)
    assert loaded == made and loaded.version == 0
    assert made.id in await shelf.active()
    loaded.join("ada", "Ada")
    loaded.version = 1
    assert await shelf.commit(loaded, 0)
    stale = await shelf.load(made.id)
    assert stale is not None and stale.version == 1
    loaded.join("bob", "Bob")
    loaded.version = 2
    assert await shelf.commit(loaded, 0) is False  # written from version 0: refused
    stored = await shelf.load(made.id)
    assert stored is not None and [e.id for e in stored.entrants] == ["ada"]
    assert await shelf.load("nothing-here-at-all") is None


async def test_racing_workers_lose_no_entrant_and_no_result(backend: Backend) -> None:
    one, two = TournamentService(backend.tournaments), TournamentService(twin(backend))
    made = await one.create(make)
    names = [f"p{i}" for i in range(12)]

    async def enter(service: TournamentService, name: str) -> None:
        await service.change(made.id, lambda r: r.join(name, name))

    await asyncio.gather(*(enter((one, two)[i % 2], n) for i, n in enumerate(names)))

    def start(record: TournamentRecord) -> bool:
        record.start(0.0)
        return True

    record, _ = await one.change(made.id, start)
    assert sorted(e.id for e in record.entrants) == sorted(names)
    games = record.round_games()
    # every game of round 1 scored by both workers at once, each twice: written once each
    results = [
        service.change(made.id, partial(first_wins, g.index))
        for g in games
        for service in (one, two, one, two)
    ]
    changed = [done for _, done in await asyncio.gather(*results)]
    assert sum(changed) == len(games)
    stored = await one.get(made.id)
    assert all(g.result == g.first for g in stored.round_games())
    assert stored.version == len(names) + 1 + len(games)


def first_wins(index: int, record: TournamentRecord) -> bool:
    game = record.round_games()[index]
    return record.score(1, index, game.first, missed=None)


async def test_a_finished_tournament_leaves_the_active_index(backend: Backend) -> None:
    service = TournamentService(backend.tournaments)
    made = await service.create(make)

    def finish(record: TournamentRecord) -> bool:
        record.status = Status.FINISHED
        return True

    await service.change(made.id, finish)
    assert made.id not in await backend.tournaments.active()
    assert (await service.get(made.id)).status is Status.FINISHED


async def test_an_unknown_tournament_is_not_found(backend: Backend) -> None:
    service = TournamentService(backend.tournaments)
    with pytest.raises(RoomError) as unknown:
        await service.change("nothing-here-at-all", lambda r: True)
    assert unknown.value.code is ErrorCode.NOT_FOUND
