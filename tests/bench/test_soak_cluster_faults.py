"""``tictactoe soak`` on a Redis Cluster with a replica per shard: shard failovers and
primary kills injected as often as asked while games were played, and nothing lost,
doubled or stuck. Counts only, no timing (slow tier: the soak takes about five minutes; a
file of its own so that it runs beside the network soak of test_soak_new_faults.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.soak_faults import clean, soak


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_cluster_failovers_and_primary_kills_lose_nothing(tmp_path: Path) -> None:
    asked = {"server_kill": 1, "cluster_failover": 2, "cluster_kill": 2}
    code, report = soak(
        tmp_path,
        *("--kills", "1", "--terms", "0", "--redis-restarts", "0", "--redis-stops", "0"),
        *("--cluster-failovers", "2", "--cluster-kills", "2"),
    )
    clean(code, report, asked)
