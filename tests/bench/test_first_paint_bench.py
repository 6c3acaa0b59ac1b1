"""The first-paint bench runs end to end (a real server behind the delaying proxy, real
Chromium) and reports its figures (the proxy's own test: test_delay_proxy.py). No figure is
judged against a time: the figures go to docs/performance.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.process
@pytest.mark.slow
@pytest.mark.parametrize("front", [[], ["--h2"]], ids=["http1", "h2-haproxy"])
def test_one_run_reports_the_lobby_and_the_game_page(front: list[str]) -> None:
    command = [sys.executable, "-m", "bench.first_paint", "--runs", "1", "--delay-ms", "20"]
    done = subprocess.run(
        [*command, *front, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["runs"] == 1 and report["gzip"] is True and report["delay_ms"] == 20
    assert report["h2"] is bool(front)
    for key in ("lobby_ms", "invite_ms", "seated_ms", "reload_ms", "reseated_ms", "revisit_ms"):
        assert 0 < report[key]["p50"] <= report[key]["max"]
    # the page came through the proxy, and a revisit fetches less than the first visit
    assert report["lobby_kib"] > 0 and report["lobby_connections"] >= 1
    assert report["revisit_kib"] < report["lobby_kib"]
