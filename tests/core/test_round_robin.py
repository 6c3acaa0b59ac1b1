"""The round-robin schedule (core.round_robin): the circle method, byes, colours balanced."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, groupby, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import schedule
from tests.core.tournament_helpers import names


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
