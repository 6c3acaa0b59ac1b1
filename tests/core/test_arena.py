"""Arena pairing (core.arena): similar scores meet, nobody twice, no immediate rematch unless
nobody else can come, colours balanced."""

from __future__ import annotations

from core.arena import ArenaPlayer, pair


def test_free_players_meet_their_neighbours_in_the_standings() -> None:
    free = [
        ArenaPlayer("a", 0),
        ArenaPlayer("b", 9),
        ArenaPlayer("c", 3),
        ArenaPlayer("d", 6),
    ]
    assert pair(free) == [("b", "d"), ("c", "a")]


def test_an_odd_player_out_waits() -> None:
    games = pair([ArenaPlayer("a", 3), ArenaPlayer("b", 3), ArenaPlayer("c", 0)])
    assert games == [("a", "b")]


def test_the_last_opponent_is_skipped_for_the_next_one_down() -> None:
    free = [
        ArenaPlayer("a", 6, last_opponent="b"),
        ArenaPlayer("b", 6, last_opponent="a"),
        ArenaPlayer("c", 0),
    ]
    assert pair(free) == [("a", "c")]  # b waits for a fresh opponent


def test_two_lone_players_rematch_only_when_nobody_else_can_come() -> None:
    free = [ArenaPlayer("a", 3, last_opponent="b"), ArenaPlayer("b", 0, last_opponent="a")]
    assert pair(free) == []
    assert pair(free, everyone_free=True) == [("a", "b")]


def test_the_player_who_played_first_more_often_plays_second() -> None:
    free = [ArenaPlayer("a", 6, lean=1), ArenaPlayer("b", 3, lean=-1)]
    assert pair(free) == [("b", "a")]
    assert pair([ArenaPlayer("a", 6), ArenaPlayer("b", 3)]) == [("a", "b")]  # a tie: the higher


def test_colour_goes_by_balance_not_by_the_count_of_games_as_x() -> None:
    # a: XXO (2 as X, balance +1); b: XOXO (2 as X, balance 0); c: X (1 as X, balance +1)
    a, b, c = ArenaPlayer("a", 6, lean=1), ArenaPlayer("b", 3, lean=0), ArenaPlayer("c", 3, lean=1)
    assert pair([a, b]) == [("b", "a")]  # the same count as X: the lower balance plays X
    assert pair([a, c]) == [("a", "c")]  # c played X less often, but the balance ties


def test_nobody_is_paired_twice_and_nobody_free_with_a_fresh_partner_is_left() -> None:
    free = [ArenaPlayer(f"p{i}", (i * 7) % 5, last_opponent=f"p{i ^ 1}") for i in range(9)]
    games = pair(free)
    names = [name for game in games for name in game]
    assert len(names) == len(set(names)) == 8
    assert all(game not in {(f"p{i}", f"p{i ^ 1}") for i in range(9)} for game in games)


def test_nobody_free_means_no_games() -> None:
    assert pair([]) == [] and pair([ArenaPlayer("a", 0)], everyone_free=True) == []


def test_with_an_odd_count_the_latest_to_come_free_sits_out() -> None:
    free = [
        ArenaPlayer("a", 9, free_since=5.0),
        ArenaPlayer("b", 6, free_since=9.0),
        ArenaPlayer("c", 3, free_since=1.0),
    ]
    assert pair(free) == [("a", "c")]  # b only just finished: a and c have waited longer
    free = [ArenaPlayer("a", 9), ArenaPlayer("b", 6), ArenaPlayer("c", 0)]
    assert pair(free) == [("a", "b")]  # all alike: the lowest placed waits
