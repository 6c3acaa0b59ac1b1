"""The capacity model's and check's results as Markdown, as docs/operations.md shows them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .model import GIB, Hosts, Plan, Units

__all__ = ["check_table", "plan_table", "units_table"]


def _n(value: float) -> str:
    return f"{value:,.0f}"


def plan_table(plans: Sequence[Plan], hosts: Hosts) -> str:
    """One column per load."""
    rows: list[tuple[str, list[str]]] = [
        ("concurrent games", [_n(p.games) for p in plans]),
        ("moves/s", [_n(p.moves_per_s) for p in plans]),
        ("WebSocket connections", [_n(p.connections) for p in plans]),
        (
            "server processes (set by)",
            [f"{_n(p.processes)} ({p.binding['processes']})" for p in plans],
        ),
        (
            f"server hosts, {hosts.cores} cores / {hosts.memory_gib:g} GiB (set by)",
            [f"{_n(p.server_hosts)} ({p.binding['server hosts']})" for p in plans],
        ),
        (
            "HAProxy hosts (set by)",
            [f"{_n(p.balancer_hosts)} ({p.binding['balancer hosts']})" for p in plans],
        ),
        (
            "Redis Cluster shards (set by)",
            [f"{_n(p.shards)} ({p.binding['shards']})" for p in plans],
        ),
        ("server CPU µs a move (pub/sub included)", [_n(p.server_cpu_us_per_move) for p in plans]),
        ("Redis CPU µs a move", [_n(p.redis_cpu_us_per_move) for p in plans]),
        (
            "pub/sub publishes/s; deliveries/s (per shard)",
            [
                f"{_n(p.publishes_per_s)}; {_n(p.pubsub_deliveries_per_s)} "
                f"({_n(p.pubsub_deliveries_per_s_per_shard)})"
                for p in plans
            ],
        ),
        (
            "connections (descriptors) a process",
            [f"{_n(p.connections_per_process)} ({_n(p.fds_per_process)})" for p in plans],
        ),
        ("descriptors a server host", [_n(p.fds_per_server_host) for p in plans]),
        ("descriptors a HAProxy host", [_n(p.fds_per_balancer_host) for p in plans]),
        (
            f"connections a (HAProxy address, server port) of {_n(hosts.ports_per_tuple)}",
            [_n(p.connections_per_port_tuple) for p in plans],
        ),
        ("server RSS a host, GiB", [f"{p.server_rss_gib_per_host:.1f}" for p in plans]),
        ("Redis memory a shard, GiB", [f"{p.redis_memory_gib_per_shard:.2f}" for p in plans]),
        ("closest to its limit", [p.first_limit for p in plans]),
    ]
    lines = [
        "| | " + " | ".join(_n(p.games) + " games" for p in plans) + " |",
        "| --- |" + " ---: |" * len(plans),
    ]
    lines += [f"| {name} | " + " | ".join(cells) + " |" for name, cells in rows]
    return "\n".join(lines)


def units_table(units: Units) -> str:
    rows = [
        ("server CPU a move, room on one process", f"{units.server_local_us_per_move:.0f} µs"),
        ("server CPU a pub/sub delivery", f"{units.server_remote_us_per_delivery:.0f} µs"),
        ("Redis CPU a move (commit)", f"{units.redis_local_us_per_move:.0f} µs"),
        ("Redis CPU a pub/sub delivery", f"{units.redis_remote_us_per_delivery:.0f} µs"),
        ("HAProxy CPU a move", f"{units.proxy_us_per_move:.0f} µs"),
        ("Redis memory a live room", f"{units.redis_bytes_per_room / 1024:.1f} KiB"),
        ("server memory an idle connection", f"{units.server_bytes_per_connection / 1024:.1f} KiB"),
        ("HAProxy memory an idle connection", f"{units.proxy_bytes_per_connection / 1024:.1f} KiB"),
        ("server process at rest", f"{units.server_base_bytes / GIB * 1024:.0f} MiB"),
        (
            "server CPU an idle connection",
            f"{units.server_us_per_connection_s:.1f} µs a second",
        ),
        ("HAProxy CPU an idle connection", f"{units.proxy_us_per_connection_s:.1f} µs a second"),
    ]
    return "\n".join(
        ["| unit | cost |", "| --- | ---: |", *(f"| {name} | {cost} |" for name, cost in rows)]
    )


def check_table(report: dict[str, Any]) -> str:
    lines = ["| figure | measured | model | ratio | within |", "| --- | ---: | ---: | ---: | --- |"]
    for name, v in report.get("verdicts", {}).items():
        lines.append(
            f"| {name} | {v['measured']:,.1f} | {v['predicted']:,.1f} | {v['ratio']:.2f} | "
            f"{'yes' if v['ok'] else 'NO'} |"
        )
    return "\n".join(lines)
