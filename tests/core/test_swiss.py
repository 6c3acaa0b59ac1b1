"""Swiss pairing (core.swiss): whole Swiss events with random results, each round checked
against every other way it could have been paired (brute force over small fields): nobody
twice while avoidable, everyone once a round or the bye, a bye at most once each, the fewest
colour conflicts, score groups kept (the least score difference), colours as documented."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.swiss import (
    InvalidRounds,
    SwissPlayer,
    SwissRound,
    check_rounds,
    colour_due,
    pair_round,
)


def matchings(names: list[str]) -> Iterator[list[tuple[str, str]]]:
    """Every way to pair ``names`` (an even count)."""
    if not names:
        yield []
        return
    first, rest = names[0], names[1:]
    for i, partner in enumerate(rest):
        for tail in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, partner), *tail]


def costs(players: dict[str, SwissPlayer], games: list[tuple[str, str]]) -> tuple[int, int, int]:
    """(repeat pairings, colour conflicts, sum of score differences) of ``games``."""
    repeats = sum(1 for a, b in games if b in players[a].opponents)
    conflicts = sum(
        1
        for a, b in games
        if colour_due(players[a]) is not None and colour_due(players[a]) == colour_due(players[b])
    )
    spread = sum(abs(players[a].score - players[b].score) for a, b in games)
    return repeats, conflicts, spread


def options(players: dict[str, SwissPlayer]) -> Iterator[tuple[str | None, list[tuple[str, str]]]]:
    """Every (bye, games) the rules allow: the bye to someone without one (odd counts)."""
    names = list(players)
    if len(names) % 2 == 0:
        for games in matchings(names):
            yield None, games
        return
    fresh = [n for n in names if not players[n].had_bye] or names
    for bye in fresh:
        for games in matchings([n for n in names if n != bye]):
            yield bye, games


def check_round(players: dict[str, SwissPlayer], ranked: list[str], got: SwissRound) -> None:
    seated = [name for game in got.games for name in game]
    assert sorted(seated + ([got.bye] if got.bye else [])) == sorted(players)  # once each
    assert (got.bye is None) == (len(players) % 2 == 0)
    if got.bye is not None and any(not p.had_bye for p in players.values()):
        assert not players[got.bye].had_bye  # a bye at most once each
    pairs = [tuple(sorted(game)) for game in got.games]
    mine = costs(players, pairs)  # type: ignore[arg-type]
    serious = min(costs(players, games)[:2] for _, games in options(players))
    assert mine[:2] == serious  # no repeats while possible, then the fewest colour conflicts
    rest = {n: p for n, p in players.items() if n != got.bye}
    spread = min(costs(rest, g)[2] for g in matchings(list(rest)) if costs(rest, g)[:2] == serious)
    assert mine[2] == spread  # score groups: the least score difference across the games
    place = {name: i for i, name in enumerate(ranked)}
    for x, o in got.games:
        high, low = sorted((x, o), key=place.__getitem__)
        gets = {x: "X", o: "O"}
        high_due, low_due = colour_due(players[high]), colour_due(players[low])
        if high_due is not None:
            assert gets[high] == high_due  # on a conflict, the higher placed has their due
        elif low_due is not None:
            assert gets[low] == low_due
        elif players[x].balance != players[o].balance:
            assert players[x].balance < players[o].balance  # the lower balance plays X


def play(players: list[SwissPlayer], got: SwissRound, results: list[int]) -> list[SwissPlayer]:
    """The players after ``got`` is played: ``results`` 0 an X win, 1 a draw, 2 an O win."""
    by_name = {p.name: p for p in players}
    for (x, o), result in zip(got.games, results, strict=True):
        px, po = by_name[x], by_name[o]
        gain = {0: (3, 0), 1: (1, 1), 2: (0, 3)}[result]
        by_name[x] = replace(
            px, score=px.score + gain[0], colours=px.colours + "X", opponents=px.opponents | {o}
        )
        by_name[o] = replace(
            po, score=po.score + gain[1], colours=po.colours + "O", opponents=po.opponents | {x}
        )
    if got.bye is not None:
        p = by_name[got.bye]
        by_name[got.bye] = replace(p, score=p.score + 3, had_bye=True)
    return [by_name[p.name] for p in players]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n - 1))), st.data())
def test_every_round_of_a_swiss_keeps_the_pairing_rules(
    size: tuple[int, int], data: st.DataObject
) -> None:
    n, rounds = size
    players = [SwissPlayer(f"p{i}") for i in range(n)]
    conflicts = 0
    for _ in range(rounds):
        by_name = {p.name: p for p in players}
        seed = {p.name: i for i, p in enumerate(players)}
        ranked = sorted(by_name, key=lambda name: (-by_name[name].score, seed[name]))
        got = pair_round(players)
        check_round(by_name, ranked, got)
        conflicts += costs(by_name, list(got.games))[1]
        results = data.draw(
            st.lists(st.integers(0, 2), min_size=len(got.games), max_size=len(got.games))
        )
        players = play(players, got, results)
    assert sum(p.had_bye for p in players) == (rounds if n % 2 else 0)
    if conflicts == 0:  # every colour rule kept: never XXX or OOO, balance within ±2
        for p in players:
            assert "XXX" not in p.colours and "OOO" not in p.colours
            assert abs(p.balance) <= 2


@settings(max_examples=15, deadline=None)
@given(
    st.integers(10, 32).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, min(n - 1, 7)))),
    st.data(),
)
def test_a_big_swiss_pairs_everyone_once_a_round_without_repeats(
    size: tuple[int, int], data: st.DataObject
) -> None:
    n, rounds = size
    players = [SwissPlayer(f"p{i}") for i in range(n)]
    for _ in range(rounds):
        got = pair_round(players)
        seated = [name for game in got.games for name in game]
        assert sorted(seated + ([got.bye] if got.bye else [])) == sorted(p.name for p in players)
        by_name = {p.name: p for p in players}
        assert not any(o in by_name[x].opponents for x, o in got.games)  # few rounds: none
        if got.bye is not None:
            assert not by_name[got.bye].had_bye
        results = data.draw(
            st.lists(st.integers(0, 2), min_size=len(got.games), max_size=len(got.games))
        )
        players = play(players, got, results)


def test_the_first_round_pairs_the_top_half_with_the_bottom_half() -> None:
    got = pair_round([SwissPlayer(f"p{i}") for i in range(8)])
    assert got == SwissRound((("p0", "p4"), ("p5", "p1"), ("p2", "p6"), ("p7", "p3")))


def test_the_bye_goes_to_the_lowest_placed_without_one_and_an_odd_group_floats_down() -> None:
    players = [
        SwissPlayer("a", 6, "XO", frozenset({"d", "e"})),
        SwissPlayer("b", 6, "OX", frozenset({"e", "f"})),
        SwissPlayer("c", 6, "XO", frozenset({"f", "g"})),
        SwissPlayer("d", 3, "OX", frozenset({"a", "g"})),
        SwissPlayer("e", 3, "XO", frozenset({"b", "a"})),
        SwissPlayer("f", 0, "XO", frozenset({"c", "b"})),
        SwissPlayer("g", 3, "O", frozenset({"c", "d"}), had_bye=True),
    ]
    got = pair_round(players)
    assert got.bye == "f"  # the lowest placed, and g has had one
    pairs = {frozenset(game) for game in got.games}
    assert frozenset({"a", "b"}) in pairs  # the top group's top half meets its bottom half
    assert frozenset({"c", "g"}) not in pairs  # no repeat: c floats down to d or e
    assert any("c" in pair and pair & {"d", "e"} for pair in pairs)


def test_a_player_with_two_of_a_colour_running_gets_the_other() -> None:
    got = pair_round([SwissPlayer("a", 6, "XX"), SwissPlayer("b", 6, "OX")])
    assert got.games == (("b", "a"),)
    got = pair_round([SwissPlayer("a", 6, "OXO"), SwissPlayer("b", 6, "XOO")])
    assert got.games == (("b", "a"),)  # b's due (X) beats a's wish by balance


@pytest.mark.parametrize(
    ("rounds", "players"), [(0, 7), (7, 7), (-1, 4), ("3", 7), (True, 7), (2.0, 7)]
)
def test_a_bad_number_of_rounds_is_a_typed_error(rounds: object, players: int) -> None:
    with pytest.raises(InvalidRounds, match="rounds") as caught:
        check_rounds(rounds, players)
    assert caught.value.code == "invalid_rounds"


def test_a_good_number_of_rounds_passes() -> None:
    assert check_rounds(3, 7) == 3 and check_rounds(1, 2) == 1
