"""``tictactoe soak --affinity`` for real: the soak's servers behind a real HAProxy with
the deployment's room affinity and checks, every client through it, and each server of the
ring killed (``kill -9``) once mid-game. Nothing is lost, doubled or stuck; the victims'
rooms moved to the survivor through the balancer and the first victim, back, took its
share of the ring again; most rooms kept their players on one server. No timing is
asserted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import main

pytestmark = pytest.mark.redis


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
@pytest.mark.timeout(240)
def test_an_affinity_soak_loses_nothing_when_servers_of_the_ring_die(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    code = main(
        [
            "soak",
            "--affinity",
            "--games",
            "6",
            "--kills",
            "2",
            "--terms",
            "0",
            "--redis-restarts",
            "0",
            "--redis-stops",
            "0",
            "--interval",
            "1",
            "--game-timeout",
            "60",
            "--quiet",
            "--json",
            str(out),
        ]
    )
    report = json.loads(out.read_text())
    assert code == 0, (report["failed_checks"], report["failures"], report["not_recovered"])
    assert report["ok"] and report["options"]["affinity"]
    assert report["injected"] == {"server_kill": 2} and report["not_injected"] == {}
    kills, _, total = report["rows"]
    assert kills["games"] > 0 and kills["reconnects"] > 0  # the victims' clients came back
    assert total["acked"] >= 25 * total["games"] > 0  # every game played to its end
    assert (total["lost"], total["doubled"], total["stuck"]) == (0, 0, 0)
    placed = report["placement"]
    servers = placed["servers"]
    assert set(servers) == {"app1", "app2"}  # named by HAProxy's X-Served-By
    assert all(counts["players"] > 0 and counts["spectators"] > 0 for counts in servers.values())
    # app1 died first: while app2 was down in turn, every room went to app1, back in the ring
    assert servers["app1"]["players_since_restart"] > 0
    assert placed["rooms"] == total["games"] and placed["moved"] > 0
    # players apart only around a ring change (about half the rooms with random servers)
    assert placed["split"] < placed["rooms"] / 2
