"""The bench's results: one record per run, ratios to the relay, and a readable table.

A run's record (``run_record``) is what the JSON file holds for it; ``compare`` puts a
server run next to the relay run of the same configuration (the stack's limit measured in
the same invocation); ``table`` prints Markdown, readable in a terminal and pasted as is
into docs/performance.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .recorder import summarize

__all__ = [
    "OpenLoop",
    "compare",
    "crowd_line",
    "generator_line",
    "open_loop_line",
    "open_loop_record",
    "plain_line",
    "proxy_line",
    "run_record",
    "table",
]

MIB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class OpenLoop:
    """An open-loop run's offer: ``games`` games, each ``rate`` moves a second."""

    games: int
    rate: float


def run_record(
    target: str,
    config: str,
    result: dict[str, Any],
    *,
    duration: float,
    server: dict[str, Any] | None,
    extra: dict[str, Any] | None = None,
    open_loop: OpenLoop | None = None,
) -> dict[str, Any]:
    """One run: throughput, latencies, connections, errors and the server's resources; for
    an ``open_loop`` run, whether the server kept up with it."""
    errors = result["errors"]
    record: dict[str, Any] = {
        "target": target,
        "config": config,
        "moves": result["moves"],
        "moves_per_s": result["moves"] / duration,
        "games": result["games"],
        "games_unfinished": result["unfinished"],
        "latency_ms": {
            "opponent": summarize(result["opponent"]),
            "spectator": summarize(result["spectator"]),
        },
        "connections": {"opened": result["opened"], "peak": result["peak"]},
        "errors": {"total": sum(errors.values()), "by_kind": errors},
        "server": server,
        "generator": {  # the load processes' own CPU: near 100 % a process, they bound the run
            "procs": result["procs"],
            "cpu_s": result["cpu_s"],
            "cpu_percent": result["cpu_s"] / duration * 100,
            "full_collections": result["full_collections"],
        },
    }
    if server is not None and result["moves"]:
        record["server"] = {**server, "cpu_us_per_move": server["cpu_s"] / result["moves"] * 1e6}
    if result.get("crowd"):
        record["crowd"] = result["crowd"]
    if open_loop is not None:
        record["open_loop"] = open_loop_record(result, duration, open_loop, record["moves_per_s"])
    record.update(extra or {})
    return record


KEPT_UP = 0.95
"""An open loop is kept up with when at least this share of the moves that fell due in the
window were sent and answered in it, and the p99 move went out within ``LAG_SHARE`` of an
interval of its due time (a move goes out late only when its turn came late, or when the
load process itself lags)."""
LAG_SHARE = 0.1


def open_loop_record(
    result: dict[str, Any], duration: float, open_loop: OpenLoop, achieved: float
) -> dict[str, Any]:
    """What an open-loop run offered, what the server achieved, and how far the schedule
    slipped; ``behind`` says why it did not keep up (empty: it did)."""
    backlog = result.get("backlog", 0)
    due_per_s = (result.get("due", 0) + backlog) / duration
    lag = summarize(result.get("late", ()))
    interval_ms = 1000 / open_loop.rate
    behind = []
    if not due_per_s or achieved < KEPT_UP * due_per_s:
        share = achieved / due_per_s if due_per_s else 0.0
        behind.append(f"achieved {share:.0%} of the moves due")
    if lag["p99"] is not None and lag["p99"] > LAG_SHARE * interval_ms:
        behind.append(f"p99 move sent {lag['p99']:.0f} ms after its due time")
    if backlog:
        behind.append(f"{backlog:,} moves due and unsent at the window's end")
    return {
        "games": open_loop.games,
        "rate_per_game": open_loop.rate,
        "offered_per_s": open_loop.games * open_loop.rate,
        "due_per_s": due_per_s,
        "achieved_per_s": achieved,
        "lag_ms": lag,
        "backlog": backlog,
        "behind": behind,
    }


def open_loop_line(run: dict[str, Any]) -> str | None:
    """An open-loop run in a sentence: offered, achieved, the schedule's lag, kept up or not
    (None for a closed-loop run)."""
    loop = run.get("open_loop")
    if loop is None:
        return None
    lag = loop["lag_ms"]
    verdict = "kept up" if not loop["behind"] else "did NOT keep up: " + "; ".join(loop["behind"])
    generator = run["generator"]
    busy = generator["cpu_percent"] / max(1, generator["procs"])
    hint = f" (the load processes ran at {busy:.0f} % CPU each: add --procs)" if busy > 80 else ""
    return (
        f"{run['config']} {run['target']}: open loop, {loop['games']:,} games × "
        f"{loop['rate_per_game']:g} moves/s = {loop['offered_per_s']:,.0f} offered "
        f"({loop['due_per_s']:,.0f} fell due in the window), "
        f"{loop['achieved_per_s']:,.0f} achieved; moves sent after their due time by "
        f"p50 / p99 / max {_ms(lag['p50'])} / {_ms(lag['p99'])} / {_ms(lag['max'])} ms: "
        f"{verdict}{hint}"
    )


def crowd_line(run: dict[str, Any]) -> str:
    """What a crowd-mode run's spectator figures cover (bench.load.crowd)."""
    crowd = run["crowd"]
    asked = run.get("spectators", 0) * crowd["rooms"]
    return (
        f"{run['config']} {run['target']}: {crowd['watchers']:,} of {asked:,} spectators "
        f"({crowd['rooms']} rooms) joined before the warm-up, spread over "
        f"{run['generator']['procs']} load processes; {crowd['expected']:,} deliveries of "
        f"moves sent in the window, {crowd['missed']:,} missed"
    )


def proxy_line(run: dict[str, Any]) -> str | None:
    """HAProxy's share of a run behind it (its CPU is counted in the server's figures, so the
    proxy's price is in the table; this says how much of it), else None."""
    proxy = run.get("proxy_cpu_us_per_move")
    total = (run.get("server") or {}).get("cpu_us_per_move")
    if proxy is None or not total:
        return None
    return (
        f"{run['config']} {run['target']}: HAProxy {proxy:.0f} µs CPU per move, counted in "
        f"the {total:.0f} µs of the table ({proxy / total * 100:.0f} %)"
    )


def generator_line(run: dict[str, Any]) -> str | None:
    """A warning when the load processes paused for a full collection inside the window
    (their figures then hold that pause; bench.load.worker), else None."""
    full = run["generator"]["full_collections"]
    if not full:
        return None
    return (
        f"{run['config']} {run['target']}: the load processes made {full} full garbage "
        "collection(s) inside the window; its latencies include those pauses"
    )


def _ratio(top: float | None, bottom: float | None) -> float | None:
    if top is None or bottom is None or bottom == 0:
        return None
    return top / bottom


def compare(server: dict[str, Any], relay: dict[str, Any]) -> dict[str, Any]:
    """Server ÷ relay: throughput (1.0 = the stack's limit), latencies and CPU per move
    (above 1.0 = slower or costlier than the bare relay)."""
    ratios: dict[str, Any] = {
        "config": server["config"],
        "moves_per_s": _ratio(server["moves_per_s"], relay["moves_per_s"]),
    }
    for who in ("opponent", "spectator"):
        for point in ("p50", "p99"):
            ratios[f"{who}_{point}"] = _ratio(
                server["latency_ms"][who][point], relay["latency_ms"][who][point]
            )
    cpu = [(run.get("server") or {}).get("cpu_us_per_move") for run in (server, relay)]
    ratios["cpu_per_move"] = _ratio(cpu[0], cpu[1])
    ratios["cpu_per_move_with_redis"] = _ratio(*[_with_redis(run) for run in (server, relay)])
    return ratios


def _with_redis(run: dict[str, Any]) -> float | None:
    """CPU per move of the target and of its Redis together (None without a figure)."""
    own = (run.get("server") or {}).get("cpu_us_per_move")
    if own is None:
        return None
    return float(own) + float(run.get("redis_cpu_us_per_move") or 0.0)


def plain_line(ratios: dict[str, Any]) -> str:
    """The server against the plain Starlette server (``compare(server, plain)``)."""
    return (
        f"{ratios['config']}: server ÷ plain Starlette: moves/s {_times(ratios['moves_per_s'])} ×, "
        f"opponent p99 {_times(ratios['opponent_p99'])} ×, CPU per move "
        f"{_times(ratios['cpu_per_move_with_redis'])} × (with Redis's)"
    )


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _times(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _cpu_per_move(server: dict[str, Any], redis_us: float | None) -> str:
    """The server's CPU per move, and Redis's beside it when the run used one."""
    if "cpu_us_per_move" not in server:
        return "–"
    own = f"{server['cpu_us_per_move']:.0f}"
    return own if redis_us is None else f"{own} + {redis_us:.0f}"


def table(runs: Sequence[dict[str, Any]], comparisons: Sequence[dict[str, Any]]) -> str:
    lines = [
        "| config | target | moves/s | × relay | opponent p50 / p95 / p99 / max ms "
        "| spectator p50 / p95 / p99 / max ms | conns opened (peak) | errors "
        "| server CPU % | µs CPU/move (+ Redis) | RSS MiB | load gen. CPU % |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    ratio_of = {c["config"]: c for c in comparisons}
    for run in runs:
        lat = run["latency_ms"]
        server = run.get("server") or {}
        ratio = (
            ratio_of.get(run["config"], {}).get("moves_per_s")
            if run["target"] == "server"
            else None
        )
        cells = [
            run["config"],
            run["target"],
            f"{run['moves_per_s']:,.0f}",
            _times(ratio),
            " / ".join(_ms(lat["opponent"][p]) for p in ("p50", "p95", "p99", "max")),
            " / ".join(_ms(lat["spectator"][p]) for p in ("p50", "p95", "p99", "max")),
            f"{run['connections']['opened']:,} ({run['connections']['peak']:,})",
            f"{run['errors']['total']:,}",
            "–" if "cpu_percent" not in server else f"{server['cpu_percent']:.0f}",
            _cpu_per_move(server, run.get("redis_cpu_us_per_move")),
            "–" if "rss_bytes" not in server else f"{server['rss_bytes'] / MIB:.0f}",
            f"{run['generator']['cpu_percent']:.0f}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
