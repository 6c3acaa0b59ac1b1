"""``tictactoe soak`` with the network faults (through its proxies) and on a Redis Cluster
with its failovers: each new fault kind injected as often as asked, while games were
played, and nothing lost, doubled or stuck. Counts only, no timing (slow tier: each soak
takes about five minutes); and the flags that do not go together are refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli import main

NO_CLASSIC = ["--kills", "0", "--terms", "0", "--redis-restarts", "0", "--redis-stops", "0"]


def _soak(tmp_path: Path, *flags: str) -> tuple[int, dict[str, Any]]:
    out = tmp_path / "soak.json"
    common = ["--games", "6", "--interval", "1", "--duration", "300", "--quiet"]
    code = main(["soak", *common, *flags, "--json", str(out)])
    return code, json.loads(out.read_text())


def _clean(code: int, report: dict[str, Any], asked: dict[str, int]) -> dict[str, Any]:
    """Every check passed: nothing lost, doubled, reordered or at a wrong version, every game
    finished and every spectator saw its last move, every fault injected."""
    assert report["failures"] == [], report["failures"]
    assert not report["not_recovered"] and not report["orphaned"], report
    assert report["failed_checks"] == [] and code == 0, (code, report["failed_checks"])
    assert report["not_injected"] == {}
    assert report["injected"] == asked
    rows = {row["fault"]: row for row in report["rows"]}
    for kind in asked:
        assert rows[kind]["games"] > 0, rows[kind]
        assert (rows[kind]["lost"], rows[kind]["doubled"]) == (0, 0)
        assert (rows[kind]["reordered"], rows[kind]["wrong_version"]) == (0, 0)
    total = rows["all"]
    assert total["acked"] >= 25 * total["games"] > 0
    return rows


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_network_faults_lose_nothing(tmp_path: Path) -> None:
    asked = {"net_latency": 1, "net_loss": 1, "redis_partition": 1, "half_open": 1}
    code, report = _soak(
        tmp_path,
        *NO_CLASSIC,
        *("--net-latency", "1", "--net-loss", "1", "--redis-partitions", "1"),
        *("--half-opens", "1", "--lease-ttl", "4", "--net-seconds", "3"),
    )
    rows = _clean(code, report, asked)
    # Cut off from Redis past its lease, the server gave its connections up: they resumed.
    assert rows["redis_partition"]["reconnects"] > 0
    # The silent connections were found dead by the servers; their clients resumed.
    assert rows["half_open"]["reconnects"] > 0


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_cluster_failovers_and_primary_kills_lose_nothing(tmp_path: Path) -> None:
    asked = {"server_kill": 1, "cluster_failover": 2, "cluster_kill": 2}
    code, report = _soak(
        tmp_path,
        *("--kills", "1", "--terms", "0", "--redis-restarts", "0", "--redis-stops", "0"),
        *("--cluster-failovers", "2", "--cluster-kills", "2"),
    )
    _clean(code, report, asked)


def test_cluster_faults_refuse_single_redis_and_network_faults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["soak", "--cluster-kills", "1", "--half-opens", "1"]) == 2
    err = capsys.readouterr().err
    assert "--redis-restarts is for one Redis" in err
    assert "--half-opens is for one Redis" in err


def test_network_faults_need_servers_the_soak_starts_and_a_real_loss(
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = ["--target", "http://127.0.0.1:9", "--redis-stops", "0"]
    assert main(["soak", *target, "--redis-partitions", "1", "--loss", "0"]) == 2
    err = capsys.readouterr().err
    assert "--redis-partitions needs servers the soak starts" in err
    assert "--loss must be above 0 and at most 1, got 0.0" in err
