"""The click-latency bench runs end to end (a real server, two real Chromium pages) and
reports its figures: a broken bench would go unnoticed, since people read its numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.browser import percentile

ROOT = Path(__file__).resolve().parents[2]


def test_percentiles_take_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([7.0], 0.99) == 7.0
    with pytest.raises(ValueError, match="no values"):
        percentile([], 0.5)


@pytest.mark.process
@pytest.mark.slow
def test_one_game_reports_both_latencies() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.click_latency", "--games", "1", "--warmup", "0", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["games"] == 1 and report["moves"] == 5
    for side in ("own_ms", "opponent_ms"):
        p50, p99 = report[side]["p50"], report[side]["p99"]
        assert 0 < p50 <= p99  # a piece is drawn after its click, never before
