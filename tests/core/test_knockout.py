"""Knockout brackets (core.knockout): standard seeding (1 v N, 2 v N-1, byes to the top seeds),
whole brackets played with random results (everyone loses once but the champion, n - 1
matches), and drawn games settled by the rule chosen."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.knockout import (
    HIGHER_SEED,
    MATCH_GAMES,
    REPLAY,
    InvalidDrawRule,
    Match,
    PlayedGame,
    bracket,
    bracket_size,
    check_draw_rule,
    decide,
    first_round,
    rounds_of,
    seed_order,
    seeded,
    stages,
)


def test_the_standard_seed_order() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@given(st.integers(1, 6))
def test_seeds_meet_as_late_as_their_places_say(power: int) -> None:
    size = 2**power
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # if the higher seed always wins, round r's matches add up to size / 2**(r-1) + 1
    alive, r = order, 1
    while len(alive) > 1:
        pairs = [alive[j : j + 2] for j in range(0, len(alive), 2)]
        assert {a + b for a, b in pairs} == {size // 2 ** (r - 1) + 1}
        alive, r = [min(p) for p in pairs], r + 1


@given(st.integers(2, 40))
def test_byes_fall_to_the_top_seeds(n: int) -> None:
    names = [f"s{i}" for i in range(1, n + 1)]
    matches = first_round(names)
    size = bracket_size(n)
    assert size >= n > size // 2 and len(matches) == size // 2
    assert rounds_of(n) == size.bit_length() - 1
    byes = [m.high for m in matches if m.low is None]
    assert sorted(byes, key=names.index) == names[: size - n]  # the top seeds
    assert sorted(p for m in matches for p in (m.high, m.low) if p) == sorted(names)
    assert all(m.low is None or names.index(m.high) < names.index(m.low) for m in matches)


def test_eight_seeds_make_the_classic_bracket() -> None:
    names = [f"s{i}" for i in range(1, 9)]
    assert first_round(names) == [
        Match("s1", "s8"), Match("s4", "s5"), Match("s2", "s7"), Match("s3", "s6")
    ]  # fmt: skip
    assert first_round(names[:6]) == [
        Match("s1", None), Match("s4", "s5"), Match("s2", None), Match("s3", "s6")
    ]  # fmt: skip


def test_seeding_is_by_rating_then_entry_order() -> None:
    ratings = {"a": 1500.0, "b": 1720.0, "c": 1500.0, "d": 1610.0}
    assert seeded(["a", "b", "c", "d"], ratings) == ("b", "d", "a", "c")


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 33), st.sampled_from([REPLAY, HIGHER_SEED]), st.data())
def test_a_whole_bracket_has_one_champion_and_n_minus_one_matches(
    n: int, rule: str, data: st.DataObject
) -> None:
    seeds = [f"s{i}" for i in range(1, n + 1)]
    rank = {name: i for i, name in enumerate(seeds)}
    alive: list[str | None] = [p for m in first_round(seeds) for p in (m.high, m.low)]
    losses: dict[str, int] = {}
    matches = games_played = 0
    for _ in range(rounds_of(n)):
        winners: list[str | None] = []
        for a, b in zip(alive[::2], alive[1::2], strict=True):
            if a is None or b is None:
                winners.append(a or b)  # a bye: through without a game
                continue
            high, low = sorted((a, b), key=rank.__getitem__)
            played: list[tuple[str, str, str | None]] = []
            while (decision := decide(high, low, played, rule)).winner is None:
                assert decision.next_game is not None
                x, o = decision.next_game
                if played:  # a replay swaps the colours
                    assert (x, o) == (played[-1][1], played[-1][0])
                else:
                    assert (x, o) == (high, low)  # the higher seed plays X first
                outcome = data.draw(st.sampled_from([x, o, None]))
                played.append((x, o, outcome))
            assert len(played) <= (MATCH_GAMES if rule == REPLAY else 1)
            decisive = [w for _, _, w in played if w is not None]
            assert decision.winner == (decisive[-1] if decisive else high)
            loser = low if decision.winner == high else high
            losses[loser] = losses.get(loser, 0) + 1
            winners.append(decision.winner)
            matches += 1
            games_played += len(played)
        alive = winners
    assert len(alive) == 1 and alive[0] is not None and alive[0] not in losses
    assert matches == n - 1 and set(losses.values()) == {1} and len(losses) == n - 1


def test_a_draw_goes_to_the_higher_seed_under_either_rule() -> None:
    drawn = [("a", "b", None)]
    assert decide("a", "b", drawn, HIGHER_SEED).winner == "a"
    assert decide("a", "b", drawn, REPLAY).next_game == ("b", "a")
    four = [("a", "b", None), ("b", "a", None), ("a", "b", None), ("b", "a", None)]
    assert decide("a", "b", four, REPLAY).winner == "a"
    assert decide("a", "b", [*drawn, ("b", "a", "b")], REPLAY).winner == "b"


@pytest.mark.parametrize("rule", ["", "coin", None, 1, "Replay"])
def test_an_unknown_draw_rule_is_a_typed_error(rule: object) -> None:
    with pytest.raises(InvalidDrawRule, match="draw") as caught:
        check_draw_rule(rule)
    assert caught.value.code == "invalid_draw_rule"
    assert check_draw_rule("replay") == "replay"


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 33), st.sampled_from([REPLAY, HIGHER_SEED]), st.data())
def test_the_bracket_from_its_games_advances_to_one_champion(
    n: int, rule: str, data: st.DataObject
) -> None:
    """``bracket`` read from the games so far: each due game played (random results) until
    every match is decided; each round's places are the winners of the two matches before,
    and ``stages`` puts the champion past the last round and each loser at their round."""
    seeds = [f"s{i}" for i in range(1, n + 1)]
    games: list[PlayedGame] = []
    while True:
        rounds = bracket(seeds, games, rule)
        due = [m for matches in rounds for m in matches if m.next_game is not None]
        if not due:
            break
        for m in due:
            x, o = m.next_game  # type: ignore[misc]
            winner = data.draw(st.sampled_from([x, o, None]))
            games.append(PlayedGame(m.round, m.index, x, o, True, winner))
    assert len(rounds) == rounds_of(n)
    for earlier, later in pairwise(rounds):
        for j, m in enumerate(later):
            assert {m.high, m.low} == {earlier[2 * j].winner, earlier[2 * j + 1].winner}
    decided = [m for matches in rounds for m in matches if not m.bye]
    assert all(m.winner in (m.high, m.low) for m in decided)
    assert len(decided) == n - 1  # every match but a bye eliminates one player
    champion = rounds[-1][0].winner
    assert champion is not None
    reached = stages(rounds)
    assert reached[champion] == len(rounds) + 1 and len(reached) == n
    for m in decided:
        loser = m.low if m.winner == m.high else m.high
        assert loser is not None and reached[loser] == m.round
