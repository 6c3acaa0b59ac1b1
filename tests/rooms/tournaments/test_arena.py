"""Arenas: the record's steps (rooms.tournaments.arena) and the director running one on real
backends (memory, a real Redis, a real Redis Cluster) with two workers racing: nobody is in
two games at once, every game is scored once, late entrants are paired, and pairing stops at
the end while the games under way are played out."""

from __future__ import annotations

import asyncio
from collections import Counter
from functools import partial

import pytest

from rooms import Backend, ErrorCode, Role, RoomError, RoomService
from rooms.room import Join, Resign
from rooms.room.commands import JoinReply
from rooms.tournaments import ARENA, Status, TournamentRecord, TournamentService
from rooms.tournaments.arena import REST, finish_if_over, free_players, pair_free
from rooms.tournaments.director import Director
from rooms.tournaments.record import DRAW, Game
from tests.rooms.tournaments.test_shelf import make, twin

START = 1_000_000.0


def arena(*entrants: str, duration: float = 600.0) -> TournamentRecord:
    record = make("t1", START)
    record.kind, record.duration = ARENA, duration
    for entrant in entrants:
        record.join(entrant, entrant.title())
    return record


def busy_twice(games: list[Game]) -> bool:
    """Whether anyone has two games without a result."""
    open_games = Counter(p for g in games if g.result is None for p in (g.first, g.second))
    return any(count > 1 for count in open_games.values())


def test_an_arena_starts_with_any_entrants_and_ends_on_time() -> None:
    record = arena("ada")
    record.start(START)
    assert record.status is Status.RUNNING and record.ends_at == START + 600
    assert pair_free(record, START) is False  # alone: nobody to meet yet
    assert record.join("bob", "Bob", now=START + 10)  # a late entrant
    assert pair_free(record, START + 10) is True
    assert [(g.round, g.first, g.second) for g in record.games] == [(1, "ada", "bob")]
    with pytest.raises(RoomError) as late:
        record.join("cy", "Cy", now=START + 600)
    assert late.value.code is ErrorCode.TOURNAMENT_CLOSED and "ended" in late.value.message
    assert record.join("bob", "Bob", now=START + 600) is False  # an entrant: still no error
    assert finish_if_over(record, START + 600) is False  # a game is still being played
    record.score(1, 0, "ada", missed=None, at=START + 601)
    assert pair_free(record, START + 700) is False  # no pairing after the end
    assert finish_if_over(record, START + 601) is True
    assert record.status.value == "finished"


def test_busy_and_resting_players_are_not_free() -> None:
    record = arena("ada", "bob", "cy", "dee")
    record.start(START)
    assert pair_free(record, START)
    assert {(g.first, g.second) for g in record.games} == {("ada", "bob"), ("cy", "dee")}
    assert free_players(record, START) == []
    assert pair_free(record, START) is False
    record.score(1, 0, "ada", missed=None, at=START + 30)
    record.score(1, 1, DRAW, missed=None, at=START + 31)
    assert free_players(record, START + 30 + REST / 2) == []  # resting: see the result first
    assert [p.name for p in free_players(record, START + 31 + REST)] == ["ada", "bob", "cy", "dee"]
    assert pair_free(record, START + 31 + REST)
    second = record.round_games(2)
    # by points: ada (3) meets cy (1) rather than bob again; bob (0) meets dee (1)
    assert {frozenset((g.first, g.second)) for g in second} == {
        frozenset(("ada", "cy")),
        frozenset(("bob", "dee")),
    }
    assert not busy_twice(record.games)


def test_colours_alternate_and_a_lone_pair_meets_again() -> None:
    record = arena("ada", "bob")
    record.start(START)
    now = START
    for number in range(1, 5):
        assert pair_free(record, now)
        record.score(number, 0, DRAW, missed=None, at=now)
        now += REST
    assert [g.first for g in record.games] == ["ada", "bob", "ada", "bob"]


def test_a_withdrawn_player_is_not_paired_and_their_waiting_game_is_forfeited() -> None:
    record = arena("ada", "bob", "cy")
    record.start(START)
    assert pair_free(record, START)
    game = record.games[0]
    assert record.withdraw(game.second)  # before its room exists: forfeited at once
    assert game.result == game.first and game.forfeit == game.second
    assert all(p.name != game.second for p in free_players(record, START + 60))


async def test_two_workers_direct_an_arena_to_its_end(backend: Backend) -> None:
    clock = [START]
    rooms, other_rooms = (
        RoomService(backend.store, clock=lambda: clock[0]),
        RoomService(backend.store, clock=lambda: clock[0]),
    )
    tournaments = TournamentService(backend.tournaments, clock=lambda: clock[0])
    other = TournamentService(twin(backend), clock=lambda: clock[0])
    directors = (Director(tournaments, rooms), Director(other, other_rooms))

    def build(tournament_id: str, now: float) -> TournamentRecord:
        record = make(tournament_id, now)
        record.kind, record.duration = ARENA, 120.0
        for entrant in ("ada", "bob", "cy", "dee", "eve"):
            record.join(f"{tournament_id[:4]}{entrant}", entrant)
        record.start(now)
        return record

    made = await tournaments.create(build)
    resigned: set[str] = set()
    seen: list[list[Game]] = []
    try:
        while True:
            await asyncio.gather(*(d.step(made.id) for d in directors))  # racing, as workers
            for director in directors:
                await director.drain()
            record = await tournaments.get(made.id)
            seen.append(record.games)
            if record.status is Status.FINISHED:
                break
            for game in record.open_games():
                assert game.room is not None
                if game.room in resigned:
                    continue
                conns = []
                for player_id in (game.first, game.second):
                    conn = f"c-{player_id}-{game.room}"
                    joined = await rooms.execute(
                        game.room, Join(conn, Role.PLAYER, "x", player_id=player_id)
                    )
                    assert isinstance(joined.reply, JoinReply)
                    conns.append(conn)
                await rooms.execute(game.room, Resign(conns[game.index % 2]))
                resigned.add(game.room)
            clock[0] += REST
        games = record.games
        assert len(games) >= 20 and all(g.result is not None for g in games)
        assert {p for g in games for p in (g.first, g.second)} == {e.id for e in record.entrants}
        assert not any(busy_twice(snapshot) for snapshot in seen)
        assert len({g.room for g in games}) == len(games)  # a room for each game, once
        # each finished game scored once: the standings count exactly the games played
        assert sum(s.played for s in record.standings()) == 2 * len(games)
        assert max(g.ended or 0 for g in games) <= clock[0]
        assert all(g.round <= record.rounds for g in games)
        assert clock[0] >= START + 120  # it ran its whole time
    finally:
        for director in directors:
            await director.close()


async def test_pairings_racing_on_two_services_never_double_book(backend: Backend) -> None:
    first = TournamentService(backend.tournaments, clock=lambda: START)
    second = TournamentService(twin(backend), clock=lambda: START)

    def build(tournament_id: str, now: float) -> TournamentRecord:
        record = make(tournament_id, now)
        record.kind, record.duration = ARENA, 60.0
        for n in range(8):
            record.join(f"p{n}", f"P{n}")
        record.start(now)
        return record

    made = await first.create(build)
    await asyncio.gather(
        *(s.change(made.id, partial(pair_free, now=START)) for s in (first, second, first))
    )
    record = await first.get(made.id)
    assert len(record.games) == 4 and record.round == 1  # one pairing won, the others saw it
    assert not busy_twice(record.games)
