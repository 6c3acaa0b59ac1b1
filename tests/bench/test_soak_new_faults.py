"""``tictactoe soak`` with the network faults (through its proxies): each fault kind
injected as often as asked, while games were played, and nothing lost, doubled or stuck.
Counts only, no timing (slow tier: the soak takes about five minutes; the Cluster's soak is
in test_soak_cluster_faults.py, a file of its own so that the two run side by side); and
the flags that do not go together are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import main
from tests.bench.soak_faults import NO_CLASSIC, clean, soak


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_network_faults_lose_nothing(tmp_path: Path) -> None:
    asked = {"net_latency": 1, "net_loss": 1, "redis_partition": 1, "half_open": 1}
    code, report = soak(
        tmp_path,
        *NO_CLASSIC,
        *("--net-latency", "1", "--net-loss", "1", "--redis-partitions", "1"),
        *("--half-opens", "1", "--lease-ttl", "4", "--net-seconds", "3"),
    )
    rows = clean(code, report, asked)
    # Cut off from Redis past its lease, the server gave its connections up: they resumed.
    assert rows["redis_partition"]["reconnects"] > 0
    # The silent connections were found dead by the servers; their clients resumed.
    assert rows["half_open"]["reconnects"] > 0


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
