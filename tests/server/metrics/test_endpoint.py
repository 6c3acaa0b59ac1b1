"""``GET /metrics`` of one process (the memory store): a game played over real WebSockets
moves the counters, and the browser client's files do not shadow the endpoint."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from server.settings import DEFAULT_STATIC
from tests.support.live_server import LiveServer
from tests.support.scrape import Samples, scrape, value
from tests.support.waiting import eventually
from tests.support.ws_client import table


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


async def test_a_game_moves_the_counters(server: LiveServer, connect: Callable[..., Any]) -> None:
    before = await scrape(server.url)  # the process' registry: other tests count too
    _, x, o, watcher = await table(server, connect)
    joined = await scrape(server.url)
    assert moved(before, joined, "tictactoe_connections", role="player") >= 2
    assert moved(before, joined, "tictactoe_connections", role="spectator") >= 1
    assert value(joined, "tictactoe_rooms_active") >= 1
    version = watcher.version
    for player, (row, col) in zip(
        (x, o, x, o, x), ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2)), strict=True
    ):
        await player.seen(version)  # the opponent's move arrived: not a stale version
        answer = await player.move(row, col)
        assert answer["type"] == "move_ok", answer
        version = answer["version"]
    await o.seen(version)
    assert (await o.move(2, 2))["code"] == "game_over"
    await x.close()
    after = await scrape(server.url)
    assert moved(before, after, "tictactoe_messages_received_total", type="move") >= 6
    assert moved(before, after, "tictactoe_messages_received_total", type="join") >= 3
    assert moved(before, after, "tictactoe_commit_seconds_count") >= 8  # 3 joins, 5 moves
    assert moved(before, after, "tictactoe_commit_seconds_sum") > 0
    errors = moved(before, after, "tictactoe_errors_total", code="game_over", transport="websocket")
    assert errors >= 1

    async def closed() -> float:
        now = await scrape(server.url)
        return moved(before, now, "tictactoe_closes_total", code="peer")

    assert await eventually(closed, "the player's close counted") >= 1
    await o.close()
    await watcher.close()


async def test_http_errors_are_counted_by_code(server: LiveServer) -> None:
    before = await scrape(server.url)
    async with httpx.AsyncClient() as http:
        response = await http.get(f"{server.url}/api/rooms/nosuchroom")
    assert response.status_code == 404
    after = await scrape(server.url)
    assert moved(before, after, "tictactoe_errors_total", code="room_not_found", transport="http")


async def test_metrics_is_not_the_browser_page(make_server: Callable[..., LiveServer]) -> None:
    live = make_server(static_dir=DEFAULT_STATIC)
    async with httpx.AsyncClient() as http:
        page = await http.get(f"{live.url}/r/someroom")
        metrics = await http.get(f"{live.url}/metrics")
    assert page.headers["content-type"].startswith("text/html")  # the client still answers
    assert metrics.status_code == 200
    assert metrics.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert "# TYPE tictactoe_commit_seconds histogram" in metrics.text


async def test_openmetrics_when_the_scraper_asks(server: LiveServer) -> None:
    async with httpx.AsyncClient() as http:
        response = await http.get(
            f"{server.url}/metrics", headers={"accept": "application/openmetrics-text"}
        )
    assert response.headers["content-type"].startswith("application/openmetrics-text")
    assert response.text.endswith("# EOF\n")


async def test_stats_name_the_host_and_worker(server: LiveServer) -> None:
    async with httpx.AsyncClient() as http:
        stats = (await http.get(f"{server.url}/api/stats")).json()
    state = server.app.state.tictactoe
    assert stats["worker"] == state.presence.worker
    assert isinstance(stats["host"], str) and stats["host"]
    assert isinstance(stats["pid"], int)
