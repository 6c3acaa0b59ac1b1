"""A tournament record's changes, sans I/O: entering, the schedule, results written once,
forfeits and withdrawals, rounds, and standings equal to core.tournament's."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from core import Tournament
from rooms import ErrorCode, RoomError
from rooms.tournaments import Status, TournamentRecord, game_room_id
from rooms.tournaments.record import DRAW


def record(*entrants: str, max_players: int = 8) -> TournamentRecord:
    made = TournamentRecord(
        id="T" * 16,
        name="Club night",
        creator="ada",
        rules={},
        time_control={"initial": 60.0, "increment": 0.0, "first_move": 10.0},
        max_players=max_players,
        public=True,
        created=1000.0,
    )
    for entrant in entrants:
        made.join(entrant, entrant.title())
    return made


def play_round(made: TournamentRecord, winner_of: dict[str, str] | None = None) -> None:
    """Give every game of the current round a room and a result (first player wins unless
    ``winner_of`` names the game's outcome by its room id)."""
    for game in made.rooms_due():
        assert made.room_made(game.round, game.index, game_room_id(made.id, game.round, game.index))
    for game in made.round_games():
        if game.result is None:
            assert game.room is not None
            made.score(game.round, game.index, (winner_of or {}).get(game.room, game.first),
                       missed=None)  # fmt: skip
    assert made.advance()


def test_joining_is_idempotent_and_bounded() -> None:
    made = record("ada", "bob", max_players=3)
    assert made.join("ada", "Ada") is False
    bot = made.add_bot("easy", "Bot (easy)")
    assert bot == "bot:easy:1" and made.entrant(bot) is not None
    with pytest.raises(RoomError) as full:
        made.join("cy", "Cy")
    assert full.value.code is ErrorCode.TOURNAMENT_FULL
    assert [e.id for e in made.entrants] == ["ada", "bob", "bot:easy:1"]


def test_only_an_open_tournament_takes_entrants_and_starts() -> None:
    made = record("ada")
    with pytest.raises(RoomError) as few:
        made.start(0.0)
    assert few.value.code is ErrorCode.TOURNAMENT_CLOSED
    made.join("bob", "Bob")
    made.start(0.0)
    for change in (lambda: made.join("cy", "Cy"), lambda: made.start(0.0)):
        with pytest.raises(RoomError) as closed:
            change()
        assert closed.value.code is ErrorCode.TOURNAMENT_CLOSED
    assert made.join("bob", "Bob") is False  # an entrant joining again: nothing changes
    with pytest.raises(RoomError) as creator:
        made.require_creator("bob", "start it")
    assert creator.value.code is ErrorCode.NOT_CREATOR


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_the_schedule_pairs_everyone_once_with_colours_balanced(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    made = record(*players)
    made.start(0.0)
    pairs = Counter(frozenset((g.first, g.second)) for g in made.games)
    assert set(pairs) == {frozenset(p) for p in combinations(players, 2)}
    assert set(pairs.values()) == {1}
    firsts = Counter(g.first for g in made.games)
    seconds = Counter(g.second for g in made.games)
    assert all(abs(firsts[p] - seconds[p]) <= 1 for p in players)
    assert made.rounds == (n - 1 if n % 2 == 0 else n) and made.round == 1
    assert len(made.byes) == (n if n % 2 else 0)


@pytest.mark.parametrize("n", [3, 4])
def test_a_double_round_robin_meets_twice_with_colours_swapped(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    made = record(*players)
    made.double = True
    made.start(0.0)
    single = n - 1 if n % 2 == 0 else n
    assert made.rounds == 2 * single
    sides = Counter((g.first, g.second) for g in made.games)
    assert all(sides[(a, b)] == 1 and sides[(b, a)] == 1 for a, b in combinations(players, 2))
    while made.status is Status.RUNNING:
        play_round(made)
    assert sum(s.played for s in made.standings()) == 2 * len(made.games) == 2 * n * (n - 1)
    assert all(s.byes == (2 if n % 2 else 0) for s in made.standings())


def test_results_are_written_once_and_rounds_follow() -> None:
    made = record("ada", "bob", "cy", "dee")
    made.start(0.0)
    assert made.advance() is False  # nothing played yet
    [first, *_] = made.rooms_due()
    room = game_room_id(made.id, 1, first.index)
    assert made.room_made(1, first.index, room) and not made.room_made(1, first.index, "other")
    assert made.game_of(first.first) is first and made.game_of(first.second) is first
    assert made.score(1, first.index, first.second, missed=None)
    assert not made.score(1, first.index, first.first, missed=None)  # a repeat, or a rival
    assert first.result == first.second and made.game_of(first.first) is None
    play_round(made)
    assert (made.round, made.status.value) == (2, "running")
    play_round(made)
    play_round(made)
    assert made.status is Status.FINISHED and made.advance() is False


def test_standings_are_core_tournaments_from_the_results() -> None:
    made = record("ada", "bob", "cy", "dee", "eve")
    made.start(0.0)
    while made.status is Status.RUNNING:
        games = {game_room_id(made.id, g.round, g.index): g for g in made.round_games()}
        play_round(made, {room: (DRAW if g.index == 0 else g.second) for room, g in games.items()})
    table = Tournament([e.id for e in made.entrants])
    for pairing in table.pairings:
        game = next(g for g in made.games if (g.first, g.second) == pairing.players)
        table.record(pairing, None if game.result == DRAW else game.result)
    assert made.standings() == table.standings()


def test_two_missed_first_moves_in_a_row_withdraw_an_entrant() -> None:
    made = record("ada", "bob", "cy", "dee")
    made.start(0.0)
    ada_games = [g for g in made.games if g.involves("ada")]
    for game in made.rooms_due():
        made.room_made(1, game.index, "r")
    one = next(g for g in made.round_games() if g.involves("ada"))
    made.score(1, one.index, "ignored", missed="ada")
    assert one.result == one.other("ada") and one.forfeit == "ada"
    ada = made.entrant("ada")
    assert ada is not None and ada.missed == 1 and not ada.withdrawn
    play_round(made)
    two = next(g for g in made.round_games() if g.involves("ada"))
    for game in made.rooms_due():
        made.room_made(2, game.index, "r")
    made.score(2, two.index, "ignored", missed="ada")
    assert ada.missed == 2 and ada.withdrawn
    # the game of round 3 had no room yet: forfeited at once
    three = next(g for g in ada_games if g.round == 3)
    assert three.result == three.other("ada") and three.forfeit == "ada"


def test_playing_resets_the_count_of_missed_games() -> None:
    made = record("ada", "bob")
    made.start(0.0)
    made.score(1, 0, "bob", missed=None)
    ada = made.entrant("ada")
    assert ada is not None and ada.missed == 0


def test_withdrawing_before_the_start_leaves_the_list() -> None:
    made = record("ada", "bob", "cy")
    assert made.withdraw("bob") and [e.id for e in made.entrants] == ["ada", "cy"]
    assert made.withdraw("bob") is False


def test_withdrawing_while_running_forfeits_the_games_not_begun() -> None:
    made = record("ada", "bob", "cy", "dee")
    made.start(0.0)
    for game in made.rooms_due():
        made.room_made(1, game.index, "r")
    assert made.withdraw("cy") and made.withdraw("cy") is False
    later = [g for g in made.games if g.involves("cy") and g.round > 1]
    assert all(g.result == g.other("cy") and g.forfeit == "cy" for g in later)
    current = next(g for g in made.round_games() if g.involves("cy"))
    assert current.result is None  # its room exists: it is played out (or forfeited there)
    assert made.withdraw("dee")
    both = next(g for g in made.games if {g.first, g.second} == {"cy", "dee"})
    assert both.result in (DRAW, "dee")  # against cy's withdrawal first, or both: a draw


def test_the_text_round_trips() -> None:
    made = record("ada", "bob", "cy")
    made.add_bot("hard", "Bot (hard)")
    made.start(0.0)
    made.score(1, 0, DRAW, missed=None)
    again = TournamentRecord.of_text(made.text())
    assert again == made and again.text() == made.text()
