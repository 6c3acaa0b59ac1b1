"""The lifecycle across two workers sharing one Redis: a flag falls by the timer of the
worker that is still alive after the players' worker stopped, and quick play pairs two
requests sent at the same moment to different workers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx

from tests.support.live_server import LiveServer
from tests.support.waiting import eventually
from tests.support.ws_client import table


async def test_a_flag_falls_while_only_another_worker_is_alive(
    redis_url: str, make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    players_worker = make_server(store_url=redis_url, bot_pool="thread")
    other_worker = make_server(store_url=redis_url, bot_pool="thread")
    room_id, x, o, _ = await table(
        players_worker, connect, time_control={"initial": 3.0, "first_move": 10}
    )
    watcher = await connect(other_worker, room_id)
    await watcher.join("spectator")
    await x.move(1, 1)
    await o.seen(x.version)
    await o.move(0, 0)
    await x.seen(o.version)
    await x.move(2, 2)  # O's clock runs now
    await watcher.until("moved", ply=3)
    players_worker.stop()  # the players' worker is gone; O's flag must still fall
    event = await watcher.until("game_over")
    assert event["outcome"] == {"reason": "timeout", "winner": "X", "loser": "O", "line": []}
    assert event["by"] is None
    survivor = other_worker.app.state.tictactoe.watch
    # the event can reach the watcher before the tick counts its commit
    await eventually(lambda: survivor.ticks, "the survivor's tick counted")
    assert survivor.ticks == 1  # the survivor committed it
    snapshot = await other_worker.snapshot(room_id)
    assert snapshot["status"] == "finished" and snapshot["players"][0]["wins"] == 1


async def test_quick_play_pairs_requests_sent_to_two_workers_at_once(
    redis_url: str, make_server: Callable[..., LiveServer]
) -> None:
    workers = [make_server(store_url=redis_url, bot_pool="thread") for _ in range(2)]
    rules = {"rows": 5, "cols": 6, "k": 4}

    async def ask(worker: LiveServer, name: str) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=worker.url) as http:
            response = await http.post("/api/quickplay", json={"rules": rules, "name": name})
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    for round_ in range(10):
        one, two = await asyncio.gather(
            ask(workers[0], f"a{round_}"), ask(workers[1], f"b{round_}")
        )
        assert one["room_id"] == two["room_id"] and {one["mark"], two["mark"]} == {"X", "O"}
