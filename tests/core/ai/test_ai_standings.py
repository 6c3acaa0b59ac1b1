"""Bot leagues through core.tournament: each level beats the one below it.

Node budgets make every game reproducible, so these are exact replays, not samples; the
full figures with one-second budgets are in docs/performance.md.
"""

from __future__ import annotations

import itertools

from core import Rules
from core.ai import UNLIMITED, Budget
from core.ai.factory import LEVELS
from core.ai.league import run_league

BUDGETS = {"hard": Budget(seconds=None, nodes=400), "perfect": UNLIMITED}


def test_each_level_beats_the_one_below_on_a_small_connect_four() -> None:
    """Connect four on 4 rows × 4 columns (a draw with best play, hard to hold), four
    games a pair; the 5-column board is bench.solver's league."""
    league = run_league(Rules(4, 4, 4, gravity=True), LEVELS, 4, budgets=BUDGETS)
    assert [s.level for s in league.standings] == list(reversed(LEVELS))
    points = [s.points for s in league.standings]
    assert points == sorted(points, reverse=True) and len(set(points)) == len(points)
    for weaker, stronger in itertools.pairwise(LEVELS):
        match = league.match(stronger, weaker)
        assert match.wins > match.losses, match
    assert league.standings[0].losses == 0  # the perfect bot never loses


def test_on_tic_tac_toe_the_top_three_never_lose_and_beat_the_bottom_two() -> None:
    """3×3 is a draw: medium, hard and perfect draw each other, never lose, and all
    beat easy, which beats random."""
    league = run_league(Rules(3, 3, 3), LEVELS, 6, budgets=BUDGETS)
    by_level = {s.level: s for s in league.standings}
    for level in ("medium", "hard", "perfect"):
        assert by_level[level].losses == 0
        for weak in ("random", "easy"):
            match = league.match(level, weak)
            assert match.wins > 0 and match.losses == 0
    assert league.match("perfect", "hard").draws == 6
    easy_v_random = league.match("easy", "random")
    assert easy_v_random.wins > easy_v_random.losses
    assert [s.level for s in league.standings][3:] == ["easy", "random"]
    # perfect leaves the weak bots the fewest safe replies: it scores most against them
    assert league.standings[0].level == "perfect"
    for weak in ("random", "easy"):
        assert league.match("perfect", weak).wins >= league.match("hard", weak).wins
    assert [(p.level, p.unproven) for p in league.proofs] == [("perfect", 0)]


def test_each_pair_score_is_split_by_who_moved_first() -> None:
    # 3×3 between perfect and random: perfect never loses, and each side starts half
    league = run_league(Rules(3, 3, 3), ["perfect", "random"], 4, seed=3)
    match = league.match("perfect", "random")
    assert match.as_first.losses == match.as_second.losses == 0
    started = match.as_first.wins + match.as_first.draws + match.as_first.losses
    answered = match.as_second.wins + match.as_second.draws + match.as_second.losses
    assert started == answered == 2
    assert (match.wins, match.draws, match.losses) == (
        match.as_first.wins + match.as_second.wins,
        match.as_first.draws + match.as_second.draws,
        0,
    )
    seen_from_random = league.match("random", "perfect")
    assert seen_from_random.as_first == match.as_second.reversed()
    assert seen_from_random.as_second == match.as_first.reversed()
    row = league.to_dict()["matches"][0]
    assert row["as_first"] == match.as_first.to_dict()
    assert row["wins"] == match.wins
