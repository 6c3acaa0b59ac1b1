"""The plain Starlette server (bench/load/plain.py): the bench loads it beside the server
and prints the ratio; it validates moves with the engine, in one process and on Redis with
two workers. Counts only, no timing."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from bench.load import CONFIGS, BenchOptions, launch, run_bench
from bench.load.report import plain_line


def _options(config: str, redis_url: str | None = None) -> BenchOptions:
    return BenchOptions(
        configs=(config,),
        games=2,
        spectators=1,
        duration=1.0,
        warmup=0.5,
        next="rematch",
        baseline=False,
        probe=False,
        plain=True,
        redis_url=redis_url,
        quiet=True,
    )


def _check_plain(report: dict[str, Any], config: str) -> dict[str, Any]:
    server, plain = report["runs"]
    assert (server["target"], plain["target"]) == ("server", "plain")
    assert plain["moves"] > 0 and plain["games"] > 0
    assert plain["errors"] == {"total": 0, "by_kind": {}}
    assert plain["latency_ms"]["spectator"]["count"] == plain["latency_ms"]["opponent"]["count"]
    assert plain["server"]["cpu_s"] > 0
    (ratios,) = report["plain"]
    assert ratios["config"] == config and ratios["moves_per_s"] > 0
    assert plain_line(ratios).startswith(f"{config}: server ÷ plain Starlette: moves/s ")
    checked: dict[str, Any] = plain
    return checked


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
def test_the_bench_loads_the_plain_server_in_one_process() -> None:
    _check_plain(run_bench(_options("memory")), "memory")


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
@pytest.mark.redis
def test_the_plain_server_on_redis_with_two_workers(redis_url: str) -> None:
    plain = _check_plain(run_bench(_options("redis2", redis_url)), "redis2")
    # redis-py's optimistic transaction and a PUBLISH for each move
    calls = plain["redis_calls_per_move"]
    assert {"watch", "get", "exec", "publish"} <= set(calls)
    assert calls["exec"] >= 1.0
    assert plain["redis_cpu_us_per_move"] >= 0  # CPU time counts in ticks: maybe none


async def test_the_plain_server_refuses_what_the_engine_refuses() -> None:
    launched = launch("plain", CONFIGS["memory"], None)
    try:
        async with httpx.AsyncClient() as http:
            response = await http.post(f"{launched.url}/api/rooms", json={"rules": {}})
        room_id = response.json()["room_id"]
        ws_url = launched.url.replace("http", "ws") + f"/ws/{room_id}"
        async with connect(ws_url, proxy=None) as x, connect(ws_url, proxy=None) as o:
            await x.send(json.dumps({"type": "join", "as": "player"}))
            assert json.loads(await x.recv())["mark"] == "X"
            await o.send(json.dumps({"type": "join", "as": "player"}))
            version = json.loads(await o.recv())["version"]
            move = {"type": "move", "row": 0, "col": 0, "version": version, "move_id": "a"}
            await o.send(json.dumps(move))  # X moves first
            assert json.loads(await o.recv())["code"] == "not_your_turn"
            await x.send(json.dumps(move))
            assert json.loads(await x.recv())["type"] == "move_ok"
            moved = json.loads(await o.recv())
            assert moved["type"] == "moved" and moved["version"] == version + 1
            await o.send(json.dumps({**move, "version": version + 1, "move_id": "b"}))
            assert json.loads(await o.recv())["code"] == "occupied"
            await o.send(json.dumps({**move, "row": 1, "move_id": "c"}))  # a stale version
            assert json.loads(await o.recv())["code"] == "stale_version"
    finally:
        launched.stop()
