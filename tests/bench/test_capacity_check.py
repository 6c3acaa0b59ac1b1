"""``python -m bench.capacity check`` end to end, small: a real three-master Redis Cluster,
two real single-process servers behind a real HAProxy, a real open-loop load; the measured
figures are held against the model, and a unit-cost file far off the truth fails it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.capacity import REFERENCE
from bench.capacity.__main__ import main
from bench.load.haproxy import haproxy_binary

pytestmark = [
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.skipif(haproxy_binary() is None, reason="needs haproxy"),
]

SMALL = ["--games", "30", "--rate", "2", "--warmup", "3", "--duration", "4", "--procs", "1"]


@pytest.mark.timeout(240)
def test_a_model_far_off_the_truth_fails_the_check(tmp_path: Path) -> None:
    data = json.loads(REFERENCE.read_text())
    # every CPU and memory figure a hundred times too high
    data["units"] = {name: value * 100 for name, value in data["units"].items()}
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(data))
    out = tmp_path / "check.json"
    assert main(["check", *SMALL, "--units", str(wrong), "--json", str(out)]) == 1
    report = json.loads(out.read_text())
    window = report["window"]
    assert window["moves"] > 0 and not window["errors"]
    assert window["connections"] == 30 * 4
    verdicts = report["verdicts"]
    assert set(verdicts) == {
        "server_cpu_percent",
        "proxy_cpu_percent",
        "redis_cpu_percent",
        "redis_bytes",
    }
    for name, verdict in verdicts.items():
        assert verdict["measured"] > 0, name  # each part of the deployment really worked
        assert verdict["ratio"] < 0.1 and not verdict["ok"], name
    assert report["ok"] is False
