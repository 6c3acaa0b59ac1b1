"""A round-robin tournament (core.tournament): results, scoring and byes, the run through a
callback, and a typed error for every wrong input."""

from __future__ import annotations

import pytest

from core import (
    DuplicatePlayer,
    GameError,
    InvalidPlayerName,
    InvalidPoints,
    NotInPairing,
    Pairing,
    Points,
    ResultAlreadyRecorded,
    TooFewPlayers,
    Tournament,
    TournamentError,
    UnknownPairing,
    UnknownPlayer,
)
from tests.core.tournament_helpers import DRAW, play, table

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
