"""Round-robin schedule, results, scoring and standings with every tie-break."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, groupby, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import (
    DuplicatePlayer,
    GameError,
    InvalidPlayerName,
    InvalidPoints,
    NotInPairing,
    Pairing,
    Points,
    ResultAlreadyRecorded,
    Standing,
    TooFewPlayers,
    Tournament,
    TournamentError,
    UnknownPairing,
    UnknownPlayer,
    schedule,
)

DRAW = "draw"


def names(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


def play(tournament: Tournament, games: dict[tuple[str, str], str]) -> None:
    """Record results given as {(one player, other player): winner or DRAW}."""
    for (a, b), outcome in games.items():
        [pairing] = [p for p in tournament.pairings if set(p.players) == {a, b}]
        tournament.record(pairing, None if outcome == DRAW else outcome)


def table(tournament: Tournament) -> dict[str, Standing]:
    return {s.name: s for s in tournament.standings()}


# -- the schedule ------------------------------------------------------------------------


def test_four_players_schedule_is_the_circle_method() -> None:
    rounds = schedule(["a", "b", "c", "d"])
    assert [[(p.first, p.second) for p in rnd.pairings] for rnd in rounds] == [
        [("a", "d"), ("c", "b")],
        [("d", "b"), ("a", "c")],
        [("c", "d"), ("b", "a")],
    ]
    assert [rnd.bye for rnd in rounds] == [None, None, None]
    assert [rnd.number for rnd in rounds] == [1, 2, 3]


def test_three_players_each_sit_out_one_round() -> None:
    rounds = schedule(["a", "b", "c"])
    assert [rnd.bye for rnd in rounds] == ["a", "b", "c"]
    assert [len(rnd.pairings) for rnd in rounds] == [1, 1, 1]


def test_two_players_double_round_robin_swaps_colours() -> None:
    rounds = schedule(["ann", "bob"], double=True)
    assert [(p.round, p.first, p.second) for rnd in rounds for p in rnd.pairings] == [
        (1, "ann", "bob"),
        (2, "bob", "ann"),
    ]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=2, max_value=12), double=st.booleans())
def test_schedule_properties(n: int, double: bool) -> None:
    players = names(n)
    rounds = schedule(players, double=double)
    cycle = n - 1 if n % 2 == 0 else n
    assert len(rounds) == cycle * (2 if double else 1)
    assert [rnd.number for rnd in rounds] == list(range(1, len(rounds) + 1))

    meetings: Counter[frozenset[str]] = Counter()
    first: Counter[str] = Counter()
    second: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    for rnd in rounds:
        seated = [name for p in rnd.pairings for name in p.players]
        if rnd.bye is not None:
            seated.append(rnd.bye)
            byes[rnd.bye] += 1
        assert sorted(seated) == players  # everyone exactly once a round, game or bye
        for p in rnd.pairings:
            assert p.round == rnd.number
            meetings[frozenset(p.players)] += 1
            first[p.first] += 1
            second[p.second] += 1

    # every pair meets exactly once (twice in a double round robin) and no one else meets
    assert set(meetings) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(meetings.values()) == {2 if double else 1}
    if double:  # and the two meetings have the colours swapped
        seen = {(p.first, p.second) for rnd in rounds for p in rnd.pairings}
        assert all((b, a) in seen for a, b in seen)

    # byes: one per cycle for everyone when n is odd, none when it is even
    assert byes == (Counter(dict.fromkeys(players, 2 if double else 1)) if n % 2 else {})

    # colours: first and second moves differ by at most one, by none when they can
    for name in players:
        gap = abs(first[name] - second[name])
        assert gap <= 1
        if double or n % 2:
            assert gap == 0

    # and nobody plays the same colour more than twice running, across the double's seam too
    for name in players:
        firsts = [p.first == name for rnd in rounds for p in rnd.pairings if name in p.players]
        longest = max(len(list(run)) for _, run in groupby(firsts))
        assert longest <= 2, f"{name} plays {firsts}"


def test_four_players_double_never_play_a_colour_three_times_running() -> None:
    rounds = schedule(["a", "b", "c", "d"], double=True)
    colours = {
        name: "".join(
            "X" if p.first == name else "O"
            for rnd in rounds
            for p in rnd.pairings
            if name in p.players
        )
        for name in "abcd"
    }
    assert colours["a"] == "XXOXOO"  # was XXOOOX with the second cycle in the same order
    assert all("XXX" not in seq and "OOO" not in seq for seq in colours.values())


@pytest.mark.parametrize("n", [3, 5, 7, 9, 11])
def test_odd_counts_alternate_first_and_second_every_game(n: int) -> None:
    rounds = schedule(names(n))
    for name in names(n):
        firsts = [p.first == name for rnd in rounds for p in rnd.pairings if name in p.players]
        assert all(a != b for a, b in pairwise(firsts))


# -- results and scoring -----------------------------------------------------------------


def test_win_draw_loss_score_three_one_nothing() -> None:
    t = Tournament(["a", "b", "c", "d"])
    play(t, {("a", "b"): "a", ("c", "d"): DRAW})
    rows = table(t)
    assert (rows["a"].points, rows["a"].wins, rows["a"].played) == (3, 1, 1)
    assert (rows["b"].points, rows["b"].losses) == (0, 1)
    assert (rows["c"].points, rows["c"].draws) == (1, 1)
    assert (rows["d"].points, rows["d"].draws) == (1, 1)


def test_custom_points() -> None:
    t = Tournament(["a", "b", "c", "d"], points=Points(win=2, draw=1, loss=0, bye=1))
    play(t, {("a", "b"): "a", ("c", "d"): DRAW})
    assert {s.name: s.points for s in t.standings()} == {"a": 2, "b": 0, "c": 1, "d": 1}


def test_bye_scores_like_a_win_once_its_round_is_complete() -> None:
    t = Tournament(["a", "b", "c"])  # round 1: b v c, a has the bye
    assert table(t)["a"].points == 0  # round 1 not played yet: no bye counted
    play(t, {("b", "c"): "b"})
    a = table(t)["a"]
    assert (a.points, a.byes, a.wins, a.played) == (3, 1, 0, 0)


def test_bye_points_are_configurable() -> None:
    t = Tournament(["a", "b", "c"], points=Points(bye=1))
    play(t, {("b", "c"): DRAW})
    assert table(t)["a"].points == 1


def test_run_plays_every_pending_game_through_the_callback() -> None:
    t = Tournament(["a", "b", "c"], double=True)
    played: list[Pairing] = []

    def first_mover_wins(pairing: Pairing) -> str | None:
        played.append(pairing)
        return pairing.player("X")

    standings = t.run(first_mover_wins)
    assert played == list(t.pairings)
    assert t.is_complete and not t.pending()
    # everyone played first twice: 2 wins, 2 losses, 2 byes = 12 points each
    assert {(s.points, s.wins, s.losses, s.byes) for s in standings} == {(12, 2, 2, 2)}
    assert [s.name for s in standings] == ["a", "b", "c"]  # all tied: listed by name
    assert [s.rank for s in standings] == [1, 1, 1]  # and all first


def test_pairing_names_its_players_by_mark() -> None:
    pairing = Pairing(1, "ann", "bob")
    assert (pairing.player("X"), pairing.player("O")) == ("ann", "bob")
    with pytest.raises(TournamentError, match="only X and O, not 'A'"):
        pairing.player("A")


def test_results_and_pending_follow_recording() -> None:
    t = Tournament(["a", "b", "c", "d"])
    first = t.pairings[0]
    result = t.record(first, first.second)
    assert result.winner == first.second and result.loser == first.first
    assert t.results == (result,)
    assert t.pending() == t.pairings[1:]
    assert "1/6 games played" in repr(t)


def test_standing_to_dict() -> None:
    t = Tournament(["a", "b"])
    play(t, {("a", "b"): "b"})
    assert t.standings()[0].to_dict() == {
        "rank": 1,
        "name": "b",
        "points": 3,
        "played": 1,
        "wins": 1,
        "draws": 0,
        "losses": 0,
        "byes": 0,
        "head_to_head": 0,  # nobody else on 3 points
        "sonneborn_berger": 0,
        "shared": False,
    }


# -- tie-breaks: each scenario is decided by one rule, and the later rules disagree --------


def test_points_come_first() -> None:
    t = Tournament(["a", "b", "c", "d"])
    play(t, {("a", "b"): "b", ("c", "d"): "c", ("a", "c"): "a", ("b", "d"): DRAW})
    assert [s.name for s in t.standings()] == ["b", "a", "c", "d"]
    assert [s.points for s in t.standings()] == [4, 3, 3, 1]


def test_sonneborn_berger_before_head_to_head() -> None:
    t = Tournament(["a", "b", "c", "d", "e"])
    play(t, {
        ("e", "b"): "e", ("c", "d"): DRAW, ("a", "c"): "a", ("d", "e"): DRAW,
        ("b", "d"): DRAW, ("e", "a"): "e", ("c", "e"): "c", ("a", "b"): "a",
        ("d", "a"): DRAW, ("b", "c"): "b",
    })  # fmt: skip
    rows = table(t)
    d, c = rows["d"], rows["c"]
    assert d.points == c.points == 7
    assert c.sonneborn_berger > d.sonneborn_berger
    # b, c and d are all on 7; among them d drew both others, c drew d and lost to b:
    # head-to-head would have put d before c
    assert (rows["b"].head_to_head, d.head_to_head, c.head_to_head) == (4, 2, 1)
    assert c.rank < d.rank


def test_sonneborn_berger_when_head_to_head_is_level() -> None:
    t = Tournament(["a", "b", "c", "d", "e"])
    play(t, {
        ("e", "b"): "e", ("c", "d"): DRAW, ("a", "c"): "a", ("d", "e"): DRAW,
        ("b", "d"): DRAW, ("e", "a"): "e", ("c", "e"): "c", ("a", "b"): "b",
        ("d", "a"): DRAW, ("b", "c"): DRAW,
    })  # fmt: skip
    rows = table(t)
    d, a = rows["d"], rows["a"]
    assert (d.points, d.head_to_head) == (a.points, a.head_to_head) == (7, 1)
    assert d.sonneborn_berger > a.sonneborn_berger
    assert a.wins > d.wins and "a" < "d"  # wins and name would have put a first
    assert d.rank < a.rank


def test_head_to_head_when_sonneborn_berger_is_level() -> None:
    t = Tournament(["a", "b", "c", "d", "e"])
    play(t, {
        ("e", "b"): DRAW, ("c", "d"): "d", ("a", "c"): "c", ("d", "e"): "d",
        ("b", "d"): DRAW, ("e", "a"): "a", ("c", "e"): "e", ("a", "b"): "b",
        ("d", "a"): "a", ("b", "c"): DRAW,
    })  # fmt: skip
    rows = table(t)
    b, a = rows["b"], rows["a"]
    assert (b.points, b.sonneborn_berger) == (a.points, a.sonneborn_berger) == (9, 51)
    assert (b.head_to_head, a.head_to_head) == (3, 0)  # b beat a
    assert a.wins > b.wins and "a" < "b"  # wins and name would have put a first
    assert b.rank < a.rank


def test_wins_when_sonneborn_berger_is_level_and_a_bye_is_not_a_win() -> None:
    t = Tournament(["a", "b", "c", "d", "e"])
    play(t, {
        ("e", "b"): "e", ("c", "d"): "c", ("a", "c"): "a", ("d", "e"): "d",
        ("b", "d"): "d", ("e", "a"): "e", ("c", "e"): "c",
        ("d", "a"): DRAW, ("b", "c"): "c",
    })  # fmt: skip  # a v b (round 4) unplayed: only a's round-1 bye is credited
    rows = table(t)
    d, a = rows["d"], rows["a"]
    assert a.byes == 1 and d.byes == 0
    assert (d.points, d.sonneborn_berger, d.head_to_head) == (7, 43, 1)
    assert (a.points, a.sonneborn_berger, a.head_to_head) == (7, 43, 1)
    assert (d.wins, a.wins) == (2, 1)
    assert d.rank < a.rank  # name alone would have put a first


def test_name_when_everything_else_is_level() -> None:
    t = Tournament(["zed", "amy", "kim"])
    play(t, {("zed", "amy"): DRAW, ("amy", "kim"): DRAW, ("kim", "zed"): DRAW})
    assert [s.name for s in t.standings()] == ["amy", "kim", "zed"]
    assert len({(s.points, s.sonneborn_berger, s.head_to_head, s.wins) for s in t.standings()}) == 1
    # the name orders the table; it places nobody above another: one rank, shared
    assert [(s.rank, s.shared) for s in t.standings()] == [(1, True)] * 3


def test_a_three_way_tie_shares_first_and_the_next_player_is_fourth() -> None:
    t = Tournament(["ann", "bob", "cat", "dan"])
    play(t, {
        ("ann", "bob"): "ann", ("bob", "cat"): "bob", ("cat", "ann"): "cat",
        ("dan", "ann"): "ann", ("dan", "bob"): "bob", ("dan", "cat"): "cat",
    })  # fmt: skip  # a cycle among three, and each beats dan
    rows = [(s.name, s.rank, s.shared, s.points) for s in t.standings()]
    assert rows == [
        ("ann", 1, True, 6), ("bob", 1, True, 6), ("cat", 1, True, 6), ("dan", 4, False, 0),
    ]  # fmt: skip


def test_a_tie_below_the_top_shares_its_place_too() -> None:
    t = Tournament(["ann", "bob", "cat"])
    play(t, {("ann", "bob"): "ann", ("ann", "cat"): "ann", ("bob", "cat"): DRAW})
    assert [(s.name, s.rank, s.shared) for s in t.standings()] == [
        ("ann", 1, False), ("bob", 2, True), ("cat", 2, True),
    ]  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=8),
    double=st.booleans(),
    data=st.data(),
)
def test_standings_add_up_and_are_ordered(n: int, double: bool, data: st.DataObject) -> None:
    t = Tournament(names(n), double=double)
    for pairing in t.pairings:
        t.record(pairing, data.draw(st.sampled_from([None, *pairing.players])))
    standings = t.standings()
    keys = [(-s.points, -s.sonneborn_berger, -s.head_to_head, -s.wins, s.name) for s in standings]
    assert keys == sorted(keys)
    for s, key in zip(standings, keys, strict=True):  # one more than those strictly ahead
        ahead = sum(other[:4] < key[:4] for other in keys)
        assert s.rank == ahead + 1
        assert s.shared == (sum(other[:4] == key[:4] for other in keys) > 1)
    draws = sum(r.is_draw for r in t.results)
    decisive = len(t.results) - draws
    byes = sum(s.byes for s in standings)
    assert sum(s.points for s in standings) == 3 * decisive + 2 * draws + 3 * byes
    for s in standings:
        assert s.played == s.wins + s.draws + s.losses == (n - 1) * (2 if double else 1)


# -- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [[], ["solo"]])
def test_fewer_than_two_players(players: list[str]) -> None:
    with pytest.raises(TooFewPlayers, match=f"at least two players, got {len(players)}") as err:
        Tournament(players)
    assert err.value.code == "too_few_players"


def test_duplicate_names() -> None:
    with pytest.raises(DuplicatePlayer, match="player 'easy' is entered twice") as err:
        Tournament(["easy", "random", "easy"])
    assert err.value.code == "duplicate_player"


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("random,easy", "players must be a list of names, got 'random,easy'"),
        (["a", ""], "non-empty string, got ''"),
        (["a", 7], "non-empty string, got 7"),
    ],
)
def test_bad_names(players: object, message: str) -> None:
    with pytest.raises(InvalidPlayerName, match=message) as err:
        Tournament(players)  # type: ignore[arg-type]
    assert err.value.code == "invalid_player_name"


def test_unknown_player() -> None:
    t = Tournament(["a", "b", "c", "d"])
    with pytest.raises(UnknownPlayer, match="'zed' is not a player in this tournament") as err:
        t.record(Pairing(1, "a", "zed"), "a")
    assert err.value.code == "unknown_player"
    with pytest.raises(UnknownPlayer, match="'zed' is not a player"):
        t.record(t.pairings[0], "zed")


def test_result_for_a_pairing_that_does_not_exist() -> None:
    t = Tournament(["a", "b", "c", "d"])  # round 1 is a (X) v d (O)
    for wrong in (Pairing(2, "a", "d"), Pairing(1, "d", "a"), Pairing(1, "a", "b")):
        with pytest.raises(UnknownPairing, match="there is no game round") as err:
            t.record(wrong, None)
        assert err.value.code == "unknown_pairing"
    with pytest.raises(UnknownPairing, match="needs a Pairing"):
        t.record(("a", "d"), None)  # type: ignore[arg-type]
    assert t.results == ()


def test_result_recorded_twice() -> None:
    t = Tournament(["a", "b"])
    t.record(t.pairings[0], "b")
    with pytest.raises(ResultAlreadyRecorded, match=r"already has a result \(a win for b\)") as err:
        t.record(t.pairings[0], None)
    assert err.value.code == "result_already_recorded"
    assert table(t)["b"].points == 3  # unchanged


def test_winner_must_play_in_the_pairing() -> None:
    t = Tournament(["a", "b", "c", "d"])
    with pytest.raises(NotInPairing, match="'b' does not play in round 1: a \\(X\\) v d") as err:
        t.record(t.pairings[0], "b")
    assert err.value.code == "not_in_pairing"


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ({"win": -1}, "win points must be a whole number ≥ 0, got -1"),
        ({"bye": True}, "bye points must be a whole number ≥ 0, got True"),
        ({"win": 1, "draw": 2}, "must rank win ≥ draw ≥ loss, got 1/2/0"),
    ],
)
def test_invalid_points(points: dict[str, int], message: str) -> None:
    with pytest.raises(InvalidPoints, match=message) as err:
        Points(**points)
    assert err.value.code == "invalid_points"


def test_every_tournament_error_is_a_game_error() -> None:
    for cls in (
        TooFewPlayers, DuplicatePlayer, InvalidPlayerName, UnknownPlayer, UnknownPairing,
        ResultAlreadyRecorded, NotInPairing, InvalidPoints,
    ):  # fmt: skip
        assert issubclass(cls, TournamentError) and issubclass(cls, GameError)
