"""A Swiss's and a knockout's record played through by their steps (rooms.tournaments.kinds),
sans I/O: rounds paired from the standings with one bye each, a bracket seeded by rating whose
drawn games are replayed (or go to the higher seed), withdrawn players forfeited, and the
record's text round trip keeping it all."""

from __future__ import annotations

from collections import Counter
from itertools import count

import pytest

from rooms import Backend, ErrorCode, RoomError, RoomService, Watch
from rooms.ratings import MemoryBook
from rooms.tournaments import KNOCKOUT, SWISS, Status, TournamentRecord, TournamentService
from rooms.tournaments.director import Director
from rooms.tournaments.kinds import advance, start
from rooms.tournaments.record import DRAW, Game
from rooms.tournaments.seeding import seeding_ratings
from tests.rooms.tournaments.test_shelf import make
from tests.support.waiting import eventually


def entered(kind: str, n: int, **options: object) -> TournamentRecord:
    record = make("t1", 0.0)
    record.kind = kind
    for key, value in options.items():
        setattr(record, key, value)
    for i in range(n):
        record.join(f"p{i}", f"Player {i}")
    return record


def play_round(record: TournamentRecord, result: object) -> None:
    """Give every game of the round without a result one: ``result(game)`` names it."""
    for game in record.round_games():
        if game.result is None:
            game.room = f"room-{game.round}-{game.index}"
            record.score(game.round, game.index, result(game), missed=None)  # type: ignore[operator]
    while advance(record, now=0.0):
        pass


def test_a_swiss_of_seven_plays_three_rounds_each_with_one_new_bye() -> None:
    record = entered(SWISS, 7, rounds=3)
    start(record, 0.0)
    assert (record.status, record.round, len(record.round_games())) == (Status.RUNNING, 1, 3)
    turn = count()
    while record.status is Status.RUNNING:
        play_round(record, lambda g: [g.first, g.second, DRAW][next(turn) % 3])
    assert record.round == 3 and len(record.games) == 9
    byes = list(record.byes.values())
    assert len(byes) == 3 and len(set(byes)) == 3  # one a round, nobody twice
    pairs = Counter(frozenset((g.first, g.second)) for g in record.games)
    assert set(pairs.values()) == {1}  # nobody met twice
    played = Counter(p for g in record.games for p in (g.first, g.second))
    assert all(played[e.id] + byes.count(e.id) == 3 for e in record.entrants)
    table = {s.name: s for s in record.standings()}
    assert all(table[b].byes == 1 for b in byes)  # scored 3 each, as documented
    again = TournamentRecord.of_text(record.text())
    assert again == record


def test_a_swiss_needs_more_entrants_than_rounds() -> None:
    record = entered(SWISS, 3, rounds=3)
    with pytest.raises(RoomError) as refused:
        start(record, 0.0)
    assert refused.value.code is ErrorCode.TOURNAMENT_CLOSED
    assert "needs at least 4 entrants" in refused.value.message


def test_a_withdrawn_swiss_player_is_paired_no_more() -> None:
    record = entered(SWISS, 6, rounds=3)
    start(record, 0.0)
    record.withdraw("p5")
    play_round(record, lambda g: g.first)
    assert record.round == 2 and all(not g.involves("p5") for g in record.round_games())
    assert record.byes.get(2) is not None  # five still in: a bye


def test_a_knockout_of_eight_is_seeded_by_rating_and_a_drawn_game_replayed() -> None:
    record = entered(KNOCKOUT, 8, draw_rule="replay")
    ratings = {f"p{i}": 1400.0 + 10 * i for i in range(8)}  # p7 the best rated
    start(record, 0.0, ratings)
    assert record.seeds == [f"p{i}" for i in range(7, -1, -1)]
    assert record.rounds == 3
    first = [(g.first, g.second) for g in record.round_games()]
    assert first == [("p7", "p0"), ("p4", "p3"), ("p6", "p1"), ("p5", "p2")]  # 1v8 4v5 2v7 3v6
    drawn = {"done": False}

    def result(game: Game) -> str:
        if game.index == 0 and not drawn["done"]:
            drawn["done"] = True
            return DRAW
        return game.second  # the lower seed wins, and the replay's O

    play_round(record, result)
    replay = record.round_games(1)[-1]
    assert record.round == 1 and replay.result is None and replay.index == 4
    play_round(record, result)
    assert (replay.first, replay.second, replay.match) == ("p0", "p7", 0)  # colours swapped
    assert record.round == 2 and replay.result == "p7"  # its O won: p7 went through
    while record.status is Status.RUNNING:
        play_round(record, lambda g: g.first)
    final = record.bracket()[-1][0]
    assert final.winner == record.standings()[0].name
    assert [s.rank for s in record.standings()] == [1, 2, 3, 3, 5, 5, 5, 5]
    assert [s.shared for s in record.standings()] == [False, False] + [True] * 6
    assert TournamentRecord.of_text(record.text()) == record


def test_higher_seed_rule_and_byes_to_the_top_seeds() -> None:
    record = entered(KNOCKOUT, 6, draw_rule="higher_seed")
    start(record, 0.0, {})  # nobody rated: seeded in the order they entered
    assert record.seeds == [f"p{i}" for i in range(6)]
    round_one = record.round_games()
    assert [(g.first, g.second) for g in round_one] == [("p3", "p4"), ("p2", "p5")]
    play_round(record, lambda g: DRAW)  # drawn: the higher seeds go through at once
    assert record.round == 2 and len(record.round_games(1)) == 2
    assert {(g.first, g.second) for g in record.round_games()} == {("p0", "p3"), ("p1", "p2")}


def test_a_withdrawn_knockout_player_forfeits_their_next_match() -> None:
    record = entered(KNOCKOUT, 4, draw_rule="replay")
    start(record, 0.0, {})
    record.withdraw("p0")  # seed 1: their game without a room is forfeited at once
    assert record.round_games()[0].result == "p3"
    play_round(record, lambda g: g.first)
    assert record.round == 2
    final = record.round_games()[0]
    assert {final.first, final.second} == {"p3", "p1"}


async def test_a_knockout_is_seeded_by_the_ratings_in_its_pool() -> None:
    book = MemoryBook()
    # p3 beat p1 in the pool of a 60 s classic game (blitz): p3 above 1500, p1 below
    await book.apply(
        {"game_number": 1, "pool": "classic.blitz", "marks": ["X", "O"],
         "players": ["p3", "p1"], "score": 1.0},
        "r1",
    )  # fmt: skip
    record = entered(KNOCKOUT, 4, draw_rule="replay")
    record.add_bot("random", "Bot (random)")
    ratings = await seeding_ratings(record, book)
    assert set(ratings) == {"p1", "p3"} and ratings["p3"] > 1500 > ratings["p1"]
    start(record, 0.0, ratings)
    assert record.seeds == ["p3", "p0", "p2", "bot:random:1", "p1"]  # unrated: 1500, in order
    assert await seeding_ratings(entered(SWISS, 4, rounds=2), book) == {}  # only a knockout


async def test_a_swiss_starting_by_its_time_with_few_entrants_plays_fewer_rounds(
    backend: Backend,
) -> None:
    """The director's start at ``starts_at``: 3 entrants for a Swiss of 4 rounds play 2, each
    round's rooms made and, bots playing, every round played to the finish."""
    rooms, tournaments = RoomService(backend.store), TournamentService(backend.tournaments)
    watch = Watch(rooms)  # plays the bots' moves
    director = Director(tournaments, rooms, interval=0.05, ratings=MemoryBook())

    def build(tournament_id: str, now: float) -> TournamentRecord:
        record = make(tournament_id, now)
        record.kind, record.rounds, record.starts_at = SWISS, 4, now
        for _ in range(3):
            record.add_bot("random", "Bot (random)")
        return record

    made = await tournaments.create(build)
    try:
        started = await director.step(made.id)
        assert started.rounds == 2 and started.round >= 1
        assert all(g.room is not None for g in started.round_games())
        director.start()
        record = await eventually(
            lambda: _finished(tournaments, made.id), "the bots' Swiss to finish", timeout=30
        )
        assert len(record.byes) == 2 and len(set(record.byes.values())) == 2
        assert len(record.games) == 2
    finally:
        await director.close()
        await watch.close()


async def _finished(tournaments: TournamentService, tournament_id: str) -> TournamentRecord | None:
    record = await tournaments.get(tournament_id)
    return record if record.status is Status.FINISHED else None
