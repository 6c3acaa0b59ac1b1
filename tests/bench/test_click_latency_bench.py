"""The click-latency bench runs end to end (a real server, two real Chromium pages) and
reports its figures, the cold first move of a visit beside the warm ones: a broken bench
would go unnoticed, since people read its numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.browser import percentile
from bench.click_latency import summarize

ROOT = Path(__file__).resolve().parents[2]


def test_percentiles_take_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([7.0], 0.99) == 7.0
    with pytest.raises(ValueError, match="no values"):
        percentile([], 0.5)


def test_the_first_move_of_each_game_is_the_cold_one() -> None:
    games = [[(40.0, 60.0), (10.0, 20.0), (12.0, 22.0)], [(50.0, 70.0), (11.0, 21.0)]]
    figures = summarize(games)
    assert figures["cold"]["moves"] == 2 and figures["moves"] == 3
    assert figures["cold"]["own_ms"] == {"p50": 40.0, "p99": 50.0}
    assert figures["cold"]["opponent_ms"] == {"p50": 60.0, "p99": 70.0}
    assert figures["own_ms"] == {"p50": 11.0, "p99": 12.0}
    assert figures["opponent_ms"] == {"p50": 21.0, "p99": 22.0}
    with pytest.raises(ValueError, match="at least two moves"):
        summarize([[(1.0, 2.0)]])


@pytest.mark.process
@pytest.mark.slow
@pytest.mark.parametrize("sound", [[], ["--no-sound"]], ids=["sound", "no-sound"])
def test_one_game_reports_cold_and_warm_latencies(sound: list[str]) -> None:
    done = subprocess.run(
        [
            *[sys.executable, "-m", "bench.click_latency", "--games", "1", "--warmup", "0"],
            *sound,
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["games"] == 1 and report["moves"] == 4 and report["cold"]["moves"] == 1
    assert report["sound"] is (not sound)
    for figures in (report, report["cold"]):
        for side in ("own_ms", "opponent_ms"):
            p50, p99 = figures[side]["p50"], figures[side]["p99"]
            assert 0 < p50 <= p99  # a piece is drawn after its click, never before
