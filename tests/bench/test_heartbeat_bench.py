"""The heartbeat-cost bench runs end to end (a real server, real WebSockets pinging) and
reports its figures: a broken bench would go unnoticed, since people read its numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.process
@pytest.mark.slow
def test_a_short_run_reports_the_cost_of_the_pings() -> None:
    done = subprocess.run(
        [
            *[sys.executable, "-m", "bench.heartbeat", "--connections", "20"],
            *["--seconds", "2", "--every", "0.5", "--json"],
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["connections"] == 20 and report["every"] == 0.5
    assert report["pings"] >= 20 * 3  # every connection pinged through the window
    assert report["beating_cpu_percent"] >= 0 and report["quiet_cpu_percent"] >= 0
    assert "us_per_ping" in report and "cpu_percent_per_1000_connections" in report
