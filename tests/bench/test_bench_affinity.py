"""``tictactoe bench --configs affinity``: two single-process servers (and two relays) on
one Redis behind a real HAProxy, whose balancing rules are deploy/haproxy.cfg's, with
HAProxy's CPU counted in the servers' figures and shown apart. The soak's HAProxy
(``tictactoe soak --affinity``) adds the deployment's checks, retries and redispatch."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench.load import CONFIGS, BenchOptions, launch, run_bench
from bench.load.haproxy import (
    CHECK_TIMING,
    CHECKS,
    CROWD,
    DEFAULT,
    FAILOVER,
    FRONTEND_RULES,
    ROOMS,
    Failover,
    haproxy_binary,
    haproxy_config,
)
from bench.load.launch import worker_stats
from bench.load.report import proxy_line
from tests.support.deploy import haproxy_sections


def test_the_bench_balances_by_the_deployments_rules() -> None:
    deployed = haproxy_sections()
    assert list(FRONTEND_RULES) == [
        line for line in deployed["frontend web"] if line in FRONTEND_RULES
    ], "the frontend's affinity rules differ from deploy/haproxy.cfg's"
    for name, rules in (("rooms", ROOMS), ("crowd", CROWD), ("app", DEFAULT)):
        balance = [
            line for line in deployed[f"backend {name}"] if line.startswith(("balance", "hash-"))
        ]
        assert balance == list(rules), name


def test_the_soaks_failover_is_the_deployments() -> None:
    # The soak's servers die: its HAProxy checks, retries and redispatches as deployed.
    deployed = haproxy_sections()
    assert set(FAILOVER) <= set(deployed["defaults"])
    for name in ("rooms", "crowd", "app"):
        lines = deployed[f"backend {name}"]
        assert [line for line in lines if line in CHECKS] == list(CHECKS), name
        timing = [line for line in lines if line.startswith("default-server")]
        assert len(timing) == 1 and timing[0].startswith(f"default-server {CHECK_TIMING} check")


@pytest.mark.process
@pytest.mark.parametrize("failover", [False, True], ids=["bench", "soak"])
def test_the_bench_config_passes_haproxy_check(failover: bool, tmp_path: Path) -> None:
    binary = haproxy_binary()
    assert binary is not None, "./run test installs Debian's haproxy"
    config = haproxy_config(
        18080,
        [18081, 18082],
        maxconn=500,
        failover=Failover(tmp_path / "haproxy.sock") if failover else None,
    )
    assert ("option httpchk GET /readyz" in config) is failover
    done = subprocess.run(
        [binary, "-c", "-f", "/dev/stdin"],
        input=config,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "[WARNING]" not in done.stdout + done.stderr


@pytest.mark.redis
def test_the_affinity_configuration_is_haproxy_before_two_servers(redis_url: str) -> None:
    launched = launch("server", CONFIGS["affinity"], redis_url)
    try:
        assert len(launched.behind) == 2 and launched.proxy_pid == launched.pid
        assert len(launched.pids) == 3
        # each server answers for itself, through HAProxy
        assert len(worker_stats(launched.url, CONFIGS["affinity"].processes)) == 2
    finally:
        launched.stop()
    assert all(server.process.poll() is not None for server in launched.behind)
    assert launched.process.poll() is not None


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
@pytest.mark.redis
def test_the_bench_on_the_affinity_configuration(redis_url: str) -> None:
    options = BenchOptions(
        configs=("affinity",),
        games=3,
        spectators=1,
        duration=1.0,
        warmup=0.3,
        redis_url=redis_url,
        quiet=True,
    )
    report = run_bench(options)
    server, relay = report["runs"]
    assert (server["target"], relay["target"]) == ("server", "relay")
    # the room's players share a process (the balancer hashes its id): local first, its
    # moves cost one EVALSHA each and no PUBLISH; the spectators' /watch path spreads the
    # crowd, so the probe with spectators may publish, once a move at most
    probes = report["configs"]["affinity"]["server"]
    alone = probes["probe_players_only"]
    assert alone["redis"]["by_command"] == {"evalsha": alone["moves"]}
    assert "publish" not in alone["redis"]["inside_scripts"]
    assert probes["probe"]["redis"]["inside_scripts"].get("publish", 0) in (0, alone["moves"])
    for run in (server, relay):
        assert run["config"] == "affinity"
        assert run["moves"] > 0 and run["errors"]["total"] == 0
        assert run["latency_ms"]["spectator"]["count"] == run["latency_ms"]["opponent"]["count"]
        # HAProxy and the two servers, each its own tree
        assert run["server"]["processes"] >= 3
        # HAProxy's CPU is inside the figure of the table (ticks of 10 ms: maybe none yet)
        assert 0 <= run["proxy_cpu_us_per_move"] <= run["server"]["cpu_us_per_move"]
        assert run["redis_cpu_us_per_move"] >= 0
    assert report["comparisons"][0]["config"] == "affinity"
    line = proxy_line({**server, "proxy_cpu_us_per_move": 30.0})
    assert line is not None and line.startswith("affinity server: HAProxy 30 µs CPU per move")
