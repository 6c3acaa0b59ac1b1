"""The deadline scan (rooms.correspondence.scanner) over a real store: a missed deadline ends
the game once however many workers scan at once, a scan that finds a move landed meanwhile
re-indexes the room, a room gone leaves the index, and a player's games list their move first.
Time is a settable clock shared by the workers (no waiting: a "day" passes by assignment)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from core import MoveRequest, Rules
from rooms import Role, RoomService
from rooms.backends.due import DueIndex
from rooms.backends.memory import MemoryStore
from rooms.backends.redis.store import RedisStore
from rooms.correspondence import DeadlineScanner, player_games
from rooms.room import Join, JoinReply, PlayMove
from rooms.room.config import RoomSettings, TimeControl
from tests.support.handled import reply_of

DAY = 10.0
"""A correspondence "day" of 10 s."""
T0 = 2.0e9


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


async def correspondence_game(
    service: RoomService, *, days: int = 1, players: tuple[str, str] = ("pa", "pb")
) -> str:
    """A room of ``days`` per move with X (``pa``) and O (``pb``) seated, both first moves
    made (a first move missed aborts the game, as in a live one): X to move."""
    settings = RoomSettings().with_time_control(TimeControl.per_move(days, day=DAY))
    room = await service.create(Rules(), public=False, settings=settings)
    for conn, player in zip(("cx", "co"), players, strict=True):
        joined = await service.execute(
            room.room_id, Join(conn, Role.PLAYER, conn.upper(), player_id=player)
        )
        assert reply_of(joined, JoinReply).mark is not None
    version = (await service.load(room.room_id)).version
    await service.execute(room.room_id, PlayMove("cx", MoveRequest(1, 1), version, "m1"))
    await service.execute(room.room_id, PlayMove("co", MoveRequest(0, 0), version + 1, "m2"))
    return room.room_id


def game_overs(texts: list[str] | None) -> list[dict[str, Any]]:
    assert texts is not None
    return [e for e in map(json.loads, texts) if e["type"] == "game_over"]


async def test_a_missed_deadline_ends_the_game_once_whoever_scans() -> None:
    clock = Clock()
    store = MemoryStore()
    workers = [RoomService(store, clock=clock) for _ in range(4)]  # four workers, one store
    room_id = await correspondence_game(workers[0])
    scanners = [DeadlineScanner(w, store, clock=clock) for w in workers]
    clock.now = T0 + DAY - 0.001
    assert sum(await asyncio.gather(*(s.scan() for s in scanners))) == 0  # X has time yet
    clock.now = T0 + DAY
    assert sum(await asyncio.gather(*(s.scan() for s in scanners))) == 1
    assert sum(await asyncio.gather(*(s.scan() for s in scanners))) == 0
    ended = game_overs(await store.events_since(room_id, 0))
    assert len(ended) == 1
    assert (ended[0]["outcome"]["reason"], ended[0]["outcome"]["winner"]) == ("timeout", "O")
    assert await store.due_rooms(clock.now + 1e6, 10) == []  # the ending commit unindexed it


async def test_a_move_made_in_time_moves_the_deadline_in_the_index() -> None:
    clock = Clock()
    store = MemoryStore()
    service = RoomService(store, clock=clock)
    room_id = await correspondence_game(service, days=2)
    assert await store.due_rooms(T0 + 2 * DAY, 10) == [(room_id, T0 + 2 * DAY)]
    assert await store.due_rooms(T0 + 2 * DAY - 0.5, 10) == []
    clock.now = T0 + 15
    version = (await service.load(room_id)).version
    await service.execute(room_id, PlayMove("cx", MoveRequest(2, 2), version, "m3"))
    assert await store.due_rooms(T0 + 15 + 2 * DAY, 10) == [(room_id, T0 + 15 + 2 * DAY)]
    clock.now = T0 + 2 * DAY + 1  # the first deadline: passed, but O has a new one
    assert await DeadlineScanner(service, store, clock=clock).scan() == 0
    assert (await service.load(room_id)).status.value == "playing"


async def test_a_wrong_entry_is_repaired_and_a_gone_room_leaves() -> None:
    clock = Clock()
    store = MemoryStore()
    service = RoomService(store, clock=clock)
    room_id = await correspondence_game(service)
    assert await store.repair_due(room_id, T0 + DAY, T0 + 1)  # as a lost second step leaves
    await store.repair_due("nosuchroom", 0.0, T0)  # not indexed: nothing to repair
    gone = await correspondence_game(service)
    store._rooms.pop(gone)  # expired with its entry still there (as a lost room is)
    assert await store.repair_due(gone, T0 + DAY, T0 + 1)
    clock.now = T0 + 2
    assert await DeadlineScanner(service, store, clock=clock).scan() == 0
    assert await store.due_rooms(T0 + 100, 10) == [(room_id, T0 + DAY)]  # repaired, gone out


async def test_a_player_s_games_list_their_move_first_with_the_time_left() -> None:
    clock = Clock()
    store = MemoryStore()
    service = RoomService(store, clock=clock)
    waiting = await correspondence_game(service)  # pa is X: to move
    clock.now = T0 + 1
    theirs = await correspondence_game(service, players=("pb", "pa"))  # pb is X: to move
    clock.now = T0 + 4
    games = await player_games(service, store, "pa")
    assert [(g["room_id"], g["your_turn"]) for g in games] == [(waiting, True), (theirs, False)]
    assert games[0]["time_left"] == pytest.approx(DAY - 4) and games[0]["mark"] == "X"
    assert games[1]["deadline"] == T0 + 1 + DAY and games[1]["opponents"] == ["CX"]
    clock.now = T0 + DAY
    await DeadlineScanner(service, store, clock=clock).scan()  # pa missed the first one
    assert [g["room_id"] for g in await player_games(service, store, "pa")] == [theirs]
    assert await store.player_rooms("pa", 10) == [theirs]  # the ended game was dropped


async def test_on_redis_two_workers_scan_and_the_game_ends_once(redis_url: str) -> None:
    clock = Clock()
    stores = [RedisStore(redis_url, prefix="corr-scan", clock=clock) for _ in range(2)]
    for store in stores:
        await store.open()
    try:
        workers = [RoomService(store, clock=clock) for store in stores]
        room_id = await correspondence_game(workers[0])
        clock.now = T0 + DAY
        scanners = [
            DeadlineScanner(w, s, clock=clock) for w, s in zip(workers, stores, strict=True)
        ]
        assert sum(await asyncio.gather(*(s.scan() for s in scanners))) == 1
        assert len(game_overs(await stores[1].events_since(room_id, 0))) == 1
        index: DueIndex = stores[1]
        assert room_id not in [r for r, _ in await index.due_rooms(T0 + 1e6, 1000)]
    finally:
        for store in stores:
            await store.close()
