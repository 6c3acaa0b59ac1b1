"""The capacity model's arithmetic (bench.capacity.model), every figure checked by hand, and
the ``model`` command on the checked-in reference unit costs."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from bench.capacity import REFERENCE, Hosts, Load, Units, plan, predict
from bench.capacity.__main__ import main
from bench.capacity.model import GIB, deliveries_per_move, publishes_per_move
from bench.capacity.runs import verdicts

ROOMY = Hosts(max_connections=1_000_000)
"""Hosts whose servers take far more connections than by default (the count is CPU's)."""

SIMPLE = Units(
    server_local_us_per_move=1000,
    server_remote_us_per_delivery=0,
    redis_local_us_per_move=100,
    redis_remote_us_per_delivery=0,
    proxy_us_per_move=100,
    redis_bytes_per_room=1024,
    server_bytes_per_connection=10240,
    proxy_bytes_per_connection=1024,
    server_base_bytes=0,
    server_us_per_connection_s=0,
    proxy_us_per_connection_s=0,
)


def test_pub_sub_deliveries_follow_from_spreading_the_spectators() -> None:
    # two processes, two spectators: the move is published unless both sit with the
    # owner (1/4), and the one other process gets it
    assert publishes_per_move(2, 2) == pytest.approx(0.75)
    assert deliveries_per_move(2, 2) == pytest.approx(0.75)
    # three: 2 other processes × P(one holds some spectator) = 2 × (1 − (2/3)²) = 10/9
    assert deliveries_per_move(3, 2) == pytest.approx(10 / 9)
    assert publishes_per_move(1, 2) == deliveries_per_move(1, 2) == 0
    assert publishes_per_move(4, 0) == deliveries_per_move(4, 0) == 0
    # for many processes every spectator sits elsewhere, on a process of its own
    assert deliveries_per_move(10_000, 2) == pytest.approx(2, abs=1e-3)


def test_ten_thousand_games_are_sized_by_server_cpu() -> None:
    sized = plan(SIMPLE, Load(10_000, 5.0, 2), ROOMY)
    assert sized.moves_per_s == 2_000 and sized.connections == 40_000
    # 2,000 moves/s × 1 ms = 2 cores; at 60 % of a core a process: 3.33 → 4
    assert sized.processes == 4 and sized.binding["processes"] == "CPU"
    # 10,000 connections × 10 KiB = 100 MiB a process: 8 fit a host, one host
    assert sized.connections_per_process == 10_000
    assert sized.server_hosts == 1 and sized.processes_per_host == 8
    # HAProxy: 0.2 cores, 40 MB, 80,000 descriptors: one host
    assert sized.balancer_hosts == 1 and sized.binding["balancer hosts"] == "one suffices"
    # Redis: 0.2 cores and 10 MB, but a cluster has three masters
    assert sized.shards == 3 and sized.binding["shards"] == "cluster minimum (3)"
    # published unless both spectators sit with the owner (1/16); 3 × (1 − (3/4)²) others
    assert sized.publishes_per_s == pytest.approx(2_000 * 15 / 16)
    assert sized.pubsub_deliveries_per_s == pytest.approx(2_000 * 3 * 0.4375)
    assert sized.pubsub_deliveries_per_s_per_shard == pytest.approx(2_625 / 3)
    assert sized.connections_per_port_tuple == 10_000
    assert sized.fds_per_process == 10_000 + 3 * 4 + 50
    assert sized.first_limit == "server process CPU"


def test_cheap_moves_on_many_connections_run_out_of_ports_and_descriptors() -> None:
    cheap = dataclasses.replace(
        SIMPLE, server_local_us_per_move=10, proxy_us_per_move=0, proxy_bytes_per_connection=0
    )
    sized = plan(cheap, Load(1_000_000, 5.0, 2), ROOMY)
    # 8,000,000 HAProxy descriptors / 1,048,576 a process → 8 balancer hosts
    assert sized.balancer_hosts == 8 and sized.binding["balancer hosts"] == "file descriptors"
    # 4,000,000 connections / (8 source addresses × 28,232 ports) = 17.7 → 18 processes,
    # where CPU alone (200,000 × 10 µs = 2 cores / 0.6) asks for 4
    assert sized.processes == 18 and sized.binding["processes"] == "ephemeral ports"
    assert sized.first_limit in {"ephemeral ports", "balancer file descriptors"}


def test_idle_connections_cost_cpu_too() -> None:
    busy = dataclasses.replace(SIMPLE, server_us_per_connection_s=25, proxy_us_per_connection_s=5)
    sized = plan(busy, Load(10_000, 5.0, 2), ROOMY)
    # 2 cores for the moves + 40,000 × 25 µs a second = 1 core: 3 / 0.6 = 5 processes
    assert sized.processes == 5 and sized.binding["processes"] == "CPU"
    expected = predict(busy, Load(100, 0.5, 2), 2)
    # 200 moves × 1,000 µs + 400 connections × 25 µs = 0.21 s a second
    assert expected.server_cpu_percent == pytest.approx(21.0)
    assert expected.proxy_cpu_percent == pytest.approx((200 * 100 + 400 * 5) / 1e4)


def test_the_servers_connection_limit_asks_for_more_processes() -> None:
    # the default --max-connections 10,000, planned to 90 % (where /readyz turns): 40,000
    # connections need 40,000 / 9,000 = 4.4 → 5 processes, where CPU asks for 4
    sized = plan(SIMPLE, Load(10_000, 5.0, 2))
    assert sized.processes == 5 and sized.binding["processes"] == "--max-connections"
    assert sized.connections_per_process == 8_000


def test_a_host_holds_fewer_processes_when_their_connections_fill_its_memory() -> None:
    fat = dataclasses.replace(SIMPLE, server_bytes_per_connection=1024 * 1024)
    sized = plan(fat, Load(10_000, 5.0, 2), ROOMY)
    # 4 processes of 10,000 × 1 MiB; 32 GiB × 0.8 = 25.6 GiB holds 2 of them
    assert sized.processes == 4 and sized.processes_per_host == 2
    assert sized.server_hosts == 2 and sized.binding["server hosts"] == "memory"
    assert sized.server_rss_gib_per_host == pytest.approx(2 * 10_000 / 1024)


def test_redis_shards_follow_memory_when_rooms_are_big() -> None:
    big = dataclasses.replace(SIMPLE, redis_local_us_per_move=10, redis_bytes_per_room=100 * 1024)
    sized = plan(big, Load(1_000_000, 5.0, 2))
    # 1,000,000 × 100 KiB = 95.4 GiB over 8 GiB shards → 12; CPU: 2 cores / 0.6 → 4
    assert sized.shards == 12 and sized.binding["shards"] == "memory"
    assert sized.redis_memory_gib_per_shard == pytest.approx(1_000_000 * 100 * 1024 / GIB / 12)


def test_host_assumptions_change_the_plan() -> None:
    small = Hosts(cores=4, cpu_headroom=0.5, max_connections=1_000_000)
    sized = plan(SIMPLE, Load(10_000, 5.0, 2), small)
    # 2 cores at half a core a process: 4 processes; 4 cores a host: 1 host
    assert sized.processes == 4 and sized.processes_per_host == 4 and sized.server_hosts == 1


def test_the_prediction_for_a_small_deployment() -> None:
    units = dataclasses.replace(
        SIMPLE, server_remote_us_per_delivery=200, redis_remote_us_per_delivery=40
    )
    # 100 games, a move every 0.5 s: 200 moves/s; two processes, 0.75 deliveries a move
    expected = predict(units, Load(100, 0.5, 2), 2)
    assert expected.server_cpu_percent == pytest.approx(200 * (1000 + 0.75 * 200) / 1e4)
    assert expected.redis_cpu_percent == pytest.approx(200 * (100 + 0.75 * 40) / 1e4)
    assert expected.proxy_cpu_percent == pytest.approx(2.0)
    assert expected.redis_bytes == 100 * 1024
    assert expected.server_connection_bytes == 400 * 10240


def test_verdicts_hold_each_figure_within_the_tolerance() -> None:
    found = verdicts(
        {"a": 140.0, "b": 160.0, "c": 70.0, "d": 60.0},
        {"a": 100.0, "b": 100.0, "c": 100.0, "d": 100.0},
        0.5,
    )
    assert [found[k]["ok"] for k in "abcd"] == [True, False, True, False]
    assert found["a"]["ratio"] == pytest.approx(1.4)


def test_bad_units_and_loads_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="lack server_remote_us_per_delivery"):
        Units.from_json({"units": {"server_local_us_per_move": 1}})
    fields = {f.name: 1.0 for f in dataclasses.fields(Units)}
    with pytest.raises(ValueError, match="negative: redis_bytes_per_room"):
        Units.from_json({**fields, "redis_bytes_per_room": -1})
    with pytest.raises(ValueError, match="games ≥ 1"):
        plan(SIMPLE, Load(0))


def test_the_model_command_sizes_the_three_loads_from_the_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "plans.json"
    assert main(["model", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| 1,000,000 games |" in printed and "Redis Cluster shards" in printed
    plans = json.loads(out.read_text())
    assert [p["games"] for p in plans] == [10_000, 100_000, 1_000_000]
    units = Units.from_json(json.loads(REFERENCE.read_text()))
    assert plans[0] == plan(units, Load(10_000)).as_dict()
    # more games never need fewer of anything
    for key in ("processes", "server_hosts", "shards", "balancer_hosts"):
        assert plans[0][key] <= plans[1][key] <= plans[2][key]


def test_the_model_command_refuses_a_missing_units_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["model", "--units", str(tmp_path / "nope.json")]) == 2
    assert "cannot read unit costs" in capsys.readouterr().err
