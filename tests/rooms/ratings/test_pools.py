"""Rating pools: the product's two-player presets, split by the clock's estimated duration."""

from __future__ import annotations

import pytest

from core import Rules
from rooms import ErrorCode, RoomError, TimeControl
from rooms.ratings import POOLS, family_of, pool_of, time_class, valid_pool
from rooms.ratings.pools import BOT_POOLS, HUMAN_POOLS


@pytest.mark.parametrize(
    ("rules", "family"),
    [
        (Rules(), "classic"),
        (Rules(rows=3, cols=3, k=3, early_draw=True), "classic"),
        (Rules(rows=6, cols=7, k=4, gravity=True), "connect4"),
        (Rules(rows=15, cols=15, k=5), "gomoku"),
        (Rules(rows=4, cols=4, k=4, layers=4), "3d"),
        (Rules(misere=True), None),
        (Rules(gravity=True), None),
        (Rules(rows=4, cols=4, k=3), None),
        (Rules(rows=7, cols=6, k=4, gravity=True), None),
        (Rules(rows=6, cols=7, k=4, gravity=True, players=3), None),
    ],
)
def test_a_family_is_one_of_the_presets_for_two_players(rules: Rules, family: str | None) -> None:
    assert family_of(rules) == family


@pytest.mark.parametrize(
    ("initial", "increment", "expected"),
    [
        (60, 0, "blitz"),
        (179, 0, "blitz"),
        (180, 0, "rapid"),
        (60, 2, "blitz"),  # 60 + 40 × 2 = 140
        (120, 1.5, "rapid"),  # 120 + 60 = 180
        (600, 5, "rapid"),
    ],
)
def test_the_time_class_is_lichess_estimate(
    initial: float, increment: float, expected: str
) -> None:
    assert time_class(TimeControl(initial, increment)) == expected


def test_no_clock_is_untimed_and_pool_ids_name_family_and_class() -> None:
    assert time_class(None) == "untimed"
    assert pool_of(Rules(), None) == "classic.untimed"
    assert pool_of(Rules(rows=4, cols=4, k=4, layers=4), TimeControl(300, 3)) == "3d.rapid"
    assert pool_of(Rules(rows=6, cols=7, k=4, gravity=True), TimeControl.per_move(7)) == (
        "connect4.correspondence"
    )
    assert len(POOLS) == 32 and all(valid_pool(pool) for pool in POOLS)
    # a bot pool for each people's pool, named behind "bot." (rooms.bots)
    assert pool_of(Rules(), None, bots=True) == "bot.classic.untimed"
    assert set(BOT_POOLS) == {"bot." + pool for pool in HUMAN_POOLS}
    assert not set(BOT_POOLS) & set(HUMAN_POOLS)
    assert not valid_pool("classic") and not valid_pool("misere.blitz") and not valid_pool(3)


def test_other_rules_are_not_rated_with_a_typed_error() -> None:
    with pytest.raises(RoomError) as caught:
        pool_of(Rules(misere=True), None)
    assert caught.value.code is ErrorCode.NOT_RATED and caught.value.field == "rated"
    assert "3×3 k=3 misere" in caught.value.message
