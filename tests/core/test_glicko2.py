"""Glicko-2 (core.glicko2) against the worked example of Glickman's "Example of the Glicko-2
system", and the properties any rating update must have."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.glicko2 import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    SCALE,
    RatedResult,
    Rating,
    RatingError,
    games_to_establish,
    idle,
    rate,
    rate_game,
)

PLAYER = Rating(1500, 200, 0.06)
PERIOD = [  # the paper's three games: a win, then two losses
    RatedResult(Rating(1400, 30), 1),
    RatedResult(Rating(1550, 100), 0),
    RatedResult(Rating(1700, 300), 0),
]


def test_the_papers_worked_example_to_four_decimals() -> None:
    after = rate(PLAYER, PERIOD, tau=0.5)
    # On the Glicko-2 scale: mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999.
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.deviation / SCALE, 4) == 0.8722
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    # Converted back (the paper from mu' rounded): r' = 1464.06, RD' = 151.52.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.deviation, 2) == 151.52


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = idle(PLAYER)
    assert after.rating == PLAYER.rating and after.volatility == PLAYER.volatility
    assert after.deviation == pytest.approx(math.hypot(200 / SCALE, 0.06) * SCALE)
    assert rate(PLAYER, []) == after
    assert idle(PLAYER, 0) == PLAYER
    assert idle(Rating(1500, 340), 1000).deviation == MAX_DEVIATION


def test_one_game_between_equals_moves_both_by_the_same_amount() -> None:
    winner, loser = rate_game(Rating(), Rating(), 1)
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rating > 1500 > loser.rating
    drawn = rate_game(Rating(), Rating(), 0.5)
    assert [r.rating for r in drawn] == pytest.approx([1500, 1500])


def test_newcomers_are_provisional_until_their_deviation_falls() -> None:
    assert Rating().provisional
    assert not Rating(1500, 80).provisional
    settled = Rating()
    opponent = Rating(1500, 60)
    for game in range(40):
        settled = rate(settled, [RatedResult(opponent, game % 2)])
    assert not settled.provisional
    assert settled.deviation >= MIN_DEVIATION


def test_games_to_establish_counts_down_to_zero_as_a_newcomer_plays_peers() -> None:
    first, second = Rating(), Rating()
    counts = [games_to_establish(first)]
    while first.provisional:
        first, second = rate_game(first, second, 0.5)
        counts.append(games_to_establish(first))
    assert counts == list(range(counts[0], -1, -1))  # one game fewer after each game
    assert 10 <= counts[0] <= 20  # docs/ratings.md: "about 13"
    assert games_to_establish(Rating(1500, 80)) == 0


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Rating(math.nan), "rating must be a finite number, got nan"),
        (lambda: Rating(1500, 0), "deviation must be above 0, got 0"),
        (lambda: Rating(1500, 200, -0.1), "volatility must be above 0, got -0.1"),
        (lambda: RatedResult(Rating(), 2), "a score is 1, 0.5 or 0, got 2"),
        (lambda: RatedResult(Rating(), True), "a score is 1, 0.5 or 0, got True"),
        (lambda: rate(Rating(), PERIOD, tau=0), "tau must be above 0, got 0"),
        (lambda: idle(Rating(), -1), "periods must be a whole number ≥ 0, got -1"),
        (lambda: rate_game(Rating(), Rating(), 0.25), "a score is 1, 0.5 or 0, got 0.25"),
    ],
)
def test_bad_input_is_a_typed_error(make: object, message: str) -> None:
    with pytest.raises(RatingError, match=message.replace("(", r"\(")) as raised:
        make()  # type: ignore[operator]
    assert raised.value.code == "invalid_rating"


ratings = st.builds(
    Rating,
    st.floats(800, 2800),
    st.floats(MIN_DEVIATION, MAX_DEVIATION),
    st.floats(0.03, 0.09),
)


@given(ratings, ratings, st.sampled_from([0, 0.5, 1]))
def test_a_game_moves_each_rating_towards_its_result(
    player: Rating, opponent: Rating, score: float
) -> None:
    after, _ = rate_game(player, opponent, score)
    if score == 1:
        assert after.rating > player.rating
    elif score == 0:
        assert after.rating < player.rating
    # A game narrows the deviation that the period alone would have widened it to (with
    # the new volatility: an upset raises it).
    widened = idle(Rating(player.rating, player.deviation, after.volatility))
    assert MIN_DEVIATION <= after.deviation <= max(widened.deviation, MIN_DEVIATION)
    assert math.isfinite(after.volatility) and after.volatility > 0
