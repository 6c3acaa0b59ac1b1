"""``tictactoe soak --storm``: its exit status honours its target, and its clients wait as
long as an overloaded server asks before they join again.

The pure parts first (the pause before a retry, the verdict); then two small real storms
(slow tier): one whose p99 target no storm can meet exits 1 and says why, one with a target
it meets exits 0 with every client resumed. No timing is asserted: the impossible target is
a microsecond, the generous one a minute.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bench.soak.client import retry_pause
from bench.soak.storm import StormOptions, _verdict
from cli import main


def test_a_refused_client_waits_the_retry_after_it_was_given_and_more() -> None:
    rng = random.Random(3)
    pauses = [retry_pause({"code": "unavailable", "retry_after": 1.0}, rng) for _ in range(200)]
    assert all(1.0 <= pause <= 2.0 for pause in pauses)
    assert max(pauses) - min(pauses) > 0.5  # spread: the refused do not come back together


def test_without_a_retry_after_the_pause_is_short() -> None:
    rng = random.Random(3)
    for answer in ({"code": "busy"}, {"code": "unavailable", "retry_after": True}):
        assert 0.1 <= retry_pause(answer, rng) <= 0.3


def _report(**fields: object) -> dict[str, object]:
    report: dict[str, object] = {"clients": 100, "not_resumed": 0, "resume_p99": 1.0}
    report.update(fields)
    return report


def test_the_verdict_names_each_target_missed() -> None:
    options = StormOptions(clients=100, p99_target=5.0)
    assert _verdict(_report(), options) == []
    assert _verdict(_report(resume_p99=5.0), options) == []
    (late,) = _verdict(_report(resume_p99=5.5), options)
    assert "p99 5.500 s is above the target of 5 s" in late
    short, missing, slow = _verdict(_report(clients=90, not_resumed=3, resume_p99=9.0), options)
    assert short == "90 of 100 clients connected before the kill"
    assert missing.startswith("3 of 90 clients not resumed within 60 s")
    assert "above the target" in slow


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_storm_that_misses_its_target_exits_1_and_says_why(tmp_path: Path) -> None:
    out = tmp_path / "storm.json"
    flags = ["--procs", "1", "--storm-p99", "0.000001", "--quiet", "--json", str(out)]
    code = main(["soak", "--storm", "40", *flags])
    report = json.loads(out.read_text())
    assert code == 1 and not report["ok"]
    assert report["resumed"] == report["clients"] == 40  # it resumed all, only too slowly
    assert report["why"] == [
        f"resume p99 {report['resume_p99']:.3f} s is above the target of 1e-06 s"
    ]


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_storm_that_meets_its_target_exits_0(tmp_path: Path) -> None:
    out = tmp_path / "storm.json"
    flags = ["--procs", "2", "--storm-p99", "60", "--quiet", "--json", str(out)]
    code = main(["soak", "--storm", "200", *flags])
    report = json.loads(out.read_text())
    assert code == 0 and report["ok"] and report["why"] == [], report["why"]
    assert report["procs"] == 2
    assert report["clients"] == report["resumed"] == 200 and report["not_resumed"] == 0
    assert 0 < report["resume_p50"] <= report["resume_p99"] <= report["resume_max"]
    assert report["handshakes"] >= 200  # every client connected again after the kill
    assert report["cpu_server"] > 0 and report["cpu_clients"] > 0  # both sides measured
