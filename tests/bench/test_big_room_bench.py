"""``python -m bench.big_room`` on a small crowd: a real Redis, a real server with two
workers, 200 real spectators over two load processes watching one room's game; every
delivery counted, and the bare write priced in the same run. The goals are judged by
``goals``, whose rules are checked on made-up figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.big_room import goals, main


def _result(**changes: Any) -> dict[str, Any]:
    result: dict[str, Any] = {
        "spectators": 100,
        "joined": 100,
        "moves": 10,
        "expected_deliveries": 1000,
        "missed": 0,
        "errors": {"total": 0, "by_kind": {}},
        "spectator_ms": {"p99": 120.0},
        "ratio": 1.1,
    }
    result.update(changes)
    return result


def test_the_goals_name_what_was_missed() -> None:
    assert goals(_result()) == []
    assert goals(_result(missed=3)) == ["3 of 1,000 deliveries missed"]
    assert goals(_result(spectator_ms={"p99": 301.0})) == ["spectator p99 301.0 ms above 300 ms"]
    assert goals(_result(ratio=1.31)) == ["CPU a delivery 1.31 × the bare write, above 1.3 ×"]
    assert goals(_result(joined=99))[0] == "only 99 of 100 spectators joined"
    assert goals(_result(ratio=2.0), ratio=2.5) == []


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--spectators", "10", "--procs", "2"]) == 2
    err = capsys.readouterr().err
    assert "--spectators must be at least 100" in err and "--procs must be from 3" in err


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.timeout(240)
def test_every_spectator_of_a_small_crowd_sees_every_move(tmp_path: Path) -> None:
    out = tmp_path / "big.json"
    code = main(
        [
            *("--spectators", "200", "--procs", "3", "--rate", "2"),
            *("--warmup", "2", "--duration", "4", "--fanout-connections", "100"),
            # generous goals: a shared test machine is judged on counting, not on speed
            *("--p99-ms", "5000", "--ratio", "1000", "--json", str(out), "--quiet"),
        ]
    )
    result = json.loads(out.read_text())
    assert result["joined"] == 200
    assert result["moves"] > 0 and result["missed"] == 0
    assert result["expected_deliveries"] == 200 * result["moves"]
    assert result["spectator_ms"]["count"] == result["expected_deliveries"]
    assert result["server_us_per_delivery"] > 0 and result["bare_write_us_per_frame"] > 0
    assert result["ratio"] == pytest.approx(
        result["server_us_per_delivery"] / result["bare_write_us_per_frame"]
    )
    assert code == 0
