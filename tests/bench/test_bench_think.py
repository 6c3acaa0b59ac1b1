"""Think times: drawn around the mean so that games do not move in step (bench.load.think)."""

from __future__ import annotations

import random
from statistics import fmean

import pytest

from bench.load.think import SPREAD, Think
from bench.load.worker import LoadPlan


def test_draws_stay_within_the_spread_and_keep_the_mean() -> None:
    think = Think(1.0, 0.5, random.Random(7))
    draws = [think.pause() for _ in range(20_000)]
    assert min(draws) >= 0.5 and max(draws) <= 1.5 == think.longest
    assert abs(fmean(draws) - 1.0) < 0.01  # the rate of moves is the asked one
    # Spread out, not bunched: every tenth of the range gets its share.
    tenths = [sum(1 for d in draws if 0.5 + i / 10 <= d < 0.6 + i / 10) for i in range(10)]
    assert min(tenths) > 1_500


def test_no_spread_is_a_metronome_and_no_mean_no_pause() -> None:
    assert {Think(0.25, 0.0).pause() for _ in range(100)} == {0.25}
    assert {Think(0.0, 0.5).pause() for _ in range(100)} == {0.0}
    assert Think().pause() == 0.0


def test_the_same_seed_gives_the_same_draws() -> None:
    first, second = Think(1.0, 0.5, random.Random(3)), Think(1.0, 0.5, random.Random(3))
    assert [first.pause() for _ in range(50)] == [second.pause() for _ in range(50)]
    other = Think(1.0, 0.5, random.Random(4))
    assert [first.pause() for _ in range(50)] != [other.pause() for _ in range(50)]


@pytest.mark.parametrize(
    "mean, spread, message",
    [
        (-1.0, 0.5, "the mean think time must be at least 0 s"),
        (float("nan"), 0.5, "the mean think time must be at least 0 s"),
        (1.0, 1.5, "the think spread must be from 0 to 1"),
        (1.0, -0.5, "the think spread must be from 0 to 1"),
    ],
)
def test_bad_think_times_are_refused(mean: float, spread: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Think(mean, spread)


def test_a_plan_s_bounds_allow_for_the_longest_think_time() -> None:
    steady = LoadPlan("http://x", 10, 1, 2.0, 0, 1, {}, think_spread=0.0)
    drawn = LoadPlan("http://x", 10, 1, 2.0, 0, 1, {})
    assert drawn.think_spread == SPREAD
    assert drawn.game_timeout - 15 == pytest.approx((steady.game_timeout - 15) * (1 + SPREAD))
    assert drawn.drain > steady.drain
