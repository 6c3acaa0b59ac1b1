"""``tictactoe bench`` end to end on a small load, against a server and a relay it starts.

Counts only: moves happened, nothing failed, every latency was measured, each event was
encoded once however many connections received it. No timing is asserted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.load import CONFIGS, BenchOptions, launch, make_scripts, run_bench
from bench.load.idle import idle_memory
from bench.load.redis_probe import probe_game
from cli import main

GAMES, SPECTATORS = 3, 2


def _check_run(run: dict[str, Any], target: str) -> None:
    assert run["target"] == target
    assert run["moves"] > 0 and run["moves_per_s"] > 0
    assert run["games"] > 0
    assert run["errors"] == {"total": 0, "by_kind": {}}
    for who in ("opponent", "spectator"):
        latency = run["latency_ms"][who]
        assert latency["count"] > 0
        assert 0 < latency["p50"] <= latency["p95"] <= latency["p99"] <= latency["max"]
    # every move reaches its opponent once and each of the spectators once
    assert run["latency_ms"]["spectator"]["count"] == (
        SPECTATORS * run["latency_ms"]["opponent"]["count"]
    )
    assert run["connections"]["opened"] >= GAMES * (2 + SPECTATORS)
    assert run["connections"]["peak"] <= GAMES * (2 + SPECTATORS)
    assert run["server"]["cpu_s"] > 0 and run["server"]["rss_bytes"] > 0
    assert run["generator"]["procs"] == 1 and run["generator"]["cpu_s"] > 0


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
def test_the_bench_loads_the_server_and_the_relay(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    code = main(
        [
            "bench",
            "--configs",
            "memory",
            "--games",
            str(GAMES),
            "--spectators",
            str(SPECTATORS),
            "--duration",
            "1",
            "--warmup",
            "0.5",
            "--rounds",
            "2",
            "--quiet",
            "--json",
            str(out),
        ]
    )
    assert code == 0
    report = json.loads(out.read_text())
    server, relay = report["runs"]
    _check_run(server, "server")
    _check_run(relay, "relay")
    for run in (server, relay):  # server and relay took turns, two windows each
        assert run["rounds"] == 2 and len(run["load_average"]) == 2
    assert server["moved_encodes_per_move"] == 1.0  # one process, no lost commit races
    (ratios,) = report["comparisons"]
    assert ratios["config"] == "memory" and ratios["moves_per_s"] > 0
    probe = report["configs"]["memory"]["server"]["probe"]
    assert probe["moved_encodes_per_move"] == 1.0
    assert probe["encodes"] == {"moved": probe["moves"], "move_ok": probe["moves"]}
    assert len(report["machine"]["load_average"]) == 3


@pytest.mark.parametrize("spectators", [0, 6])
def test_an_event_is_encoded_once_whatever_the_receivers(spectators: int) -> None:
    launched = launch("server", CONFIGS["memory"], None)
    try:
        script = make_scripts({}, 1, seed=11)[0]
        probe = probe_game(
            launched.url, None, workers=1, rules={}, script=script, spectators=spectators
        )
    finally:
        launched.stop()
    assert probe["moves"] == len(script)
    # 2 + spectators connections received each moved; the server encoded it once
    assert probe["encodes"] == {"moved": len(script), "move_ok": len(script)}


def test_idle_connections_are_opened_joined_and_counted() -> None:
    launched = launch("server", CONFIGS["memory"], None)
    try:
        idle = idle_memory(launched.url, launched.pid, 40, per_room=8)
    finally:
        launched.stop()
    assert idle["connections"] == 40 and idle["per_room"] == 8
    assert idle["rss_before_bytes"] > 0 and idle["rss_after_bytes"] > 0
    assert idle["bytes_per_connection"] == pytest.approx(
        (idle["rss_after_bytes"] - idle["rss_before_bytes"]) / 40
    )


def test_idle_connections_cpu_and_a_part_of_the_tree_are_measured_apart() -> None:
    launched = launch("server", CONFIGS["memory"], None)
    try:
        # the server's own tree named as a part: its figures must equal the whole's
        idle = idle_memory(
            launched.url, launched.pid, 20, parts={"self": launched.pid}, cpu_window=0.5
        )
    finally:
        launched.stop()
    part = idle["parts"]["self"]
    assert part["rss_before_bytes"] > 0
    assert part["bytes_per_connection"] == pytest.approx(
        (part["rss_after_bytes"] - part["rss_before_bytes"]) / 20
    )
    assert idle["cpu_percent_at_rest"] >= 0 and part["cpu_percent_at_rest"] >= 0
    assert isinstance(idle["cpu_us_per_connection_s"], float)


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
def test_the_bench_loads_a_running_server_at_a_url() -> None:
    launched = launch("server", CONFIGS["memory"], None)
    try:
        report = run_bench(
            BenchOptions(
                url=launched.url,
                server_pid=launched.pid,
                games=GAMES,
                spectators=SPECTATORS,
                duration=1.5,
                warmup=0.5,
                quiet=True,
            )
        )
    finally:
        launched.stop()
    (run,) = report["runs"]
    assert run["config"] == "url"
    _check_run(run, "server")
    assert report["comparisons"] == []  # no relay to compare with
