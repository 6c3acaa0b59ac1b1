"""The director on real backends (memory, a real Redis, a real Redis Cluster): rooms made
once per game with the entrants seated, results scored once, rounds opened in turn, a missed
first move forfeited, and a second worker doing the same work changing nothing twice."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from core import MoveRequest, Tournament
from rooms import Backend, ErrorCode, Role, RoomError, RoomService, Watch
from rooms.room import Abort, Join, Rematch, Resign
from rooms.room.commands import JoinReply, PlayMove, Tick
from rooms.tournaments import Status, TournamentRecord, TournamentService, game_room_id
from rooms.tournaments.director import Director
from tests.rooms.tournaments.test_shelf import make, twin
from tests.support.waiting import eventually


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def entered(*entrants: str, bots: tuple[str, ...] = ()) -> object:
    def build(tournament_id: str, now: float) -> TournamentRecord:
        record = make(tournament_id, now)
        for entrant in entrants:
            record.join(f"{tournament_id[:4]}{entrant}", entrant)
        for level in bots:
            record.add_bot(level, f"Bot ({level})")
        record.start(0.0)
        return record

    return build


async def join(rooms: RoomService, room_id: str, player_id: str) -> str:
    """Seat ``player_id`` by identity; its connection id."""
    conn = f"c-{player_id}-{room_id}"
    executed = await rooms.execute(room_id, Join(conn, Role.PLAYER, "x", player_id=player_id))
    assert isinstance(executed.reply, JoinReply) and executed.reply.token is not None
    return conn


async def test_a_round_robin_is_directed_to_its_end(backend: Backend) -> None:
    clock = Clock()
    rooms, tournaments = (
        RoomService(backend.store, clock=clock),
        TournamentService(backend.tournaments, clock=clock),
    )
    other_rooms = RoomService(backend.store, clock=clock)
    other = TournamentService(twin(backend), clock=clock)
    director, second = Director(tournaments, rooms), Director(other, other_rooms)
    made = await tournaments.create(entered("ada", "bob", "cy", "dee"))  # type: ignore[arg-type]
    try:
        while True:
            # the worker whose commit ended a game also looks at once (its observer): the
            # steps race, as on two workers, and the record is the same whoever wins
            await director.step(made.id)
            await second.step(made.id)
            await director.drain()
            await second.drain()
            record = await tournaments.get(made.id)
            if record.status is not Status.RUNNING:
                break
            for game in record.round_games():
                assert game.room == game_room_id(made.id, game.round, game.index)
                room = await rooms.load(game.room)
                assert [s.player_id for s in room.seats] == [game.first, game.second]
                assert room.snapshot()["tournament"] == made.id  # a pasted link knows it
                with pytest.raises(RoomError) as stranger:
                    await rooms.execute(game.room, Join("s", Role.PLAYER, "s", player_id="zed"))
                assert stranger.value.code is ErrorCode.ROOM_FULL
                await join(rooms, game.room, game.first)
                second_conn = await join(rooms, game.room, game.second)
                if game.index == 0:
                    await rooms.execute(game.room, Resign(second_conn))  # first wins
                else:
                    await rooms.execute(game.room, Resign(f"c-{game.first}-{game.room}"))
        games = record.games
        assert all(g.result is not None and g.forfeit is None for g in games)
        pairs = Counter(frozenset((g.first, g.second)) for g in games)
        assert set(pairs) == {
            frozenset(p) for p in combinations([e.id for e in record.entrants], 2)
        }
        assert set(pairs.values()) == {1}
        table = Tournament([e.id for e in record.entrants])
        for pairing in table.pairings:
            game = next(g for g in games if (g.first, g.second) == pairing.players)
            table.record(pairing, game.result)
        assert record.standings() == table.standings()
    finally:
        await director.close()
        await second.close()


async def test_a_missed_first_move_forfeits_and_two_withdraw(backend: Backend) -> None:
    clock = Clock()
    rooms = RoomService(backend.store, clock=clock)
    tournaments = TournamentService(backend.tournaments, clock=clock)
    director = Director(tournaments, rooms)
    made = await tournaments.create(entered("ada", "bob", "cy", "dee"))  # type: ignore[arg-type]
    ada = f"{made.id[:4]}ada"
    try:
        for round_number in (1, 2):
            await director.step(made.id)
            await director.drain()  # a step its observer started when a game ended
            record = await tournaments.get(made.id)
            assert record.round == round_number
            for game in record.round_games():
                assert game.room is not None
                if not game.involves(ada):
                    loser = await join(rooms, game.room, game.second)
                    await rooms.execute(game.room, Resign(loser))
            ada_game = next(g for g in record.round_games() if g.involves(ada))
            assert ada_game.room is not None
            if ada_game.second == ada:  # X moves first; then it is ada's first move
                x = await join(rooms, ada_game.room, ada_game.first)
                room = await rooms.load(ada_game.room)
                move = PlayMove(x, MoveRequest(col=0, row=0), room.version, "m1")
                await rooms.execute(ada_game.room, move)
            clock.now += 11  # past the 10 s first-move limit: ada's game is aborted
            await rooms.execute(ada_game.room, Tick())
        await director.step(made.id)
        await director.drain()
        record = await tournaments.get(made.id)
        entrant = record.entrant(ada)
        assert entrant is not None and entrant.withdrawn
        assert all(
            g.result == g.other(ada) and g.forfeit == ada for g in record.games if g.involves(ada)
        )
    finally:
        await director.close()


async def test_bots_play_their_games_by_themselves(backend: Backend) -> None:
    rooms = RoomService(backend.store)
    watch = Watch(rooms)
    tournaments = TournamentService(backend.tournaments)
    director = Director(tournaments, rooms, interval=0.05)
    made = await tournaments.create(entered(bots=("random", "random", "random")))  # type: ignore[arg-type]
    director.start()
    try:
        record = await eventually(
            lambda: _finished(tournaments, made.id), "the bots' tournament to finish", timeout=30
        )
        assert len(record.games) == 3 and all(g.result for g in record.games)
        assert sorted(record.byes.values()) == sorted(e.id for e in record.entrants)
    finally:
        await director.close()
        await watch.close()


async def _finished(tournaments: TournamentService, tournament_id: str) -> TournamentRecord | None:
    record = await tournaments.get(tournament_id)
    return record if record.status is Status.FINISHED else None


async def test_a_tournament_room_seats_its_entrants_only_and_plays_one_game(
    backend: Backend,
) -> None:
    rooms, tournaments = RoomService(backend.store), TournamentService(backend.tournaments)
    director = Director(tournaments, rooms)
    made = await tournaments.create(entered("ada", "bob"))  # type: ignore[arg-type]
    try:
        [game] = (await director.step(made.id)).round_games()
        assert game.room is not None
        with pytest.raises(RoomError) as anonymous:
            await rooms.execute(game.room, Join("g", Role.PLAYER, "Guest"))
        assert anonymous.value.code is ErrorCode.IDENTITY_REQUIRED
        x = await join(rooms, game.room, game.first)
        tab = await rooms.execute(game.room, Join("tab", Role.PLAYER, "x", player_id=game.first))
        assert isinstance(tab.reply, JoinReply) and tab.reply.mark == "X"  # the same seat
        key = "k" * 22  # a browser's join carries a join key too: the identity picks the seat
        keyed = Join("key", Role.PLAYER, "x", join_key=key, player_id=game.second)
        answer = await rooms.execute(game.room, keyed)
        assert isinstance(answer.reply, JoinReply) and answer.reply.mark == "O"
        assert (await rooms.load(game.room)).seats[0].connections == [x, "tab"]
        assert (await rooms.load(game.room)).seats[1].connections == ["key"]
        with pytest.raises(RoomError) as abort:
            await rooms.execute(game.room, Abort(x))
        assert abort.value.code is ErrorCode.CANNOT_ABORT
        await rooms.execute(game.room, Resign(x))
        with pytest.raises(RoomError) as rematch:
            await rooms.execute(game.room, Rematch(x))
        assert rematch.value.code is ErrorCode.GAME_OVER
        await director.drain()
        record = await director.step(made.id)
        assert record.status is Status.FINISHED and record.games[0].result == game.second
    finally:
        await director.close()


async def test_a_game_whose_room_is_gone_is_a_draw(backend: Backend) -> None:
    rooms, tournaments = RoomService(backend.store), TournamentService(backend.tournaments)
    director = Director(tournaments, rooms)
    made = await tournaments.create(entered("ada", "bob"))  # type: ignore[arg-type]
    try:  # the room recorded, then lost by its store (here: never made)
        await tournaments.change(made.id, lambda r: r.room_made(1, 0, f"{made.id}-gone"))
        record = await director.step(made.id)
        assert record.status is Status.FINISHED
        assert (record.games[0].result, record.games[0].forfeit) == ("draw", None)
    finally:
        await director.close()


async def test_a_start_time_starts_it_or_finishes_it_without_players(backend: Backend) -> None:
    clock = Clock()
    rooms = RoomService(backend.store, clock=clock)
    tournaments = TournamentService(backend.tournaments, clock=clock)
    director = Director(tournaments, rooms)

    def timed(*entrants: str) -> object:
        def build(tournament_id: str, now: float) -> TournamentRecord:
            record = make(tournament_id, now)
            record.starts_at = now + 60
            for entrant in entrants:
                record.join(entrant, entrant)
            return record

        return build

    full = await tournaments.create(timed("ada", "bob"))  # type: ignore[arg-type]
    empty = await tournaments.create(timed("ada"))  # type: ignore[arg-type]
    try:
        assert (await director.step(full.id)).status is Status.OPEN  # not yet
        clock.now += 60
        started = await director.step(full.id)
        assert started.status is Status.RUNNING and started.round_games()[0].room is not None
        assert (await director.step(empty.id)).status is Status.FINISHED
        assert empty.id not in await backend.tournaments.active()
    finally:
        await director.close()
