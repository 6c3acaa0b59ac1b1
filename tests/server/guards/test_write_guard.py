"""State-changing HTTP requests (server/guards/write_guard.py) on a real server: JSON only, and
the Origin checked as for a WebSocket; the CLI and the bench, which send no Origin, work."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from starlette.routing import Route

from bench.load.http import HttpPool
from client import RoomLink, create_room
from core import Rules
from server.api.responses import api_not_found
from tests.support.live_server import LiveServer

EVIL = "https://evil.example"
JSON_TYPE = "application/json"


async def public_rooms(client: httpx.AsyncClient) -> list[str]:
    return [room["room_id"] for room in (await client.get("/api/rooms")).json()["rooms"]]


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        ({"origin": EVIL, "content-type": "text/plain"}, 403, "origin_not_allowed"),
        ({"origin": EVIL, "content-type": JSON_TYPE}, 403, "origin_not_allowed"),
        ({"origin": "null", "content-type": JSON_TYPE}, 403, "origin_not_allowed"),
        ({"content-type": "text/plain"}, 415, "unsupported_media_type"),
        ({"content-type": "application/x-www-form-urlencoded"}, 415, "unsupported_media_type"),
        ({}, 415, "unsupported_media_type"),
    ],
)
async def test_a_refused_write_gets_a_typed_error_and_creates_nothing(
    server: LiveServer, headers: dict[str, str], status: int, code: str
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        before = await public_rooms(client)
        response = await client.post("/api/rooms", content=b'{"public": true}', headers=headers)
        after = await public_rooms(client)
    assert response.status_code == status
    assert response.json()["code"] == code and response.json()["message"]
    assert after == before


@pytest.mark.parametrize(
    "headers",
    [
        {"content-type": JSON_TYPE},  # no Origin: not a browser
        {"content-type": "application/json; charset=utf-8"},
        {"content-type": JSON_TYPE, "origin": "SAME"},  # the page's own origin
    ],
)
async def test_a_json_write_from_this_site_or_no_browser_works(
    server: LiveServer, headers: dict[str, str]
) -> None:
    if headers.get("origin") == "SAME":
        headers = {**headers, "origin": server.url}
    async with httpx.AsyncClient(base_url=server.url) as client:
        response = await client.post("/api/rooms", content=b'{"public": true}', headers=headers)
        assert response.status_code == 201, response.text
        assert response.json()["room_id"] in await public_rooms(client)


async def test_an_allowed_origin_may_write(make_server: Callable[..., LiveServer]) -> None:
    live = make_server(allowed_origins=("https://play.example",))
    async with httpx.AsyncClient(base_url=live.url) as client:
        allowed = await client.post(
            "/api/rooms", json={}, headers={"origin": "https://play.example"}
        )
        refused = await client.post("/api/rooms", json={}, headers={"origin": EVIL})
    assert (allowed.status_code, refused.status_code) == (201, 403)


async def test_a_cross_site_write_is_logged_once_at_warning(
    server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="tictactoe.server"):
        async with httpx.AsyncClient(base_url=server.url) as client:
            refused = await client.post("/api/rooms", json={}, headers={"origin": EVIL})
    assert refused.status_code == 403
    (record,) = [r for r in caplog.records if getattr(r, "refusal", None) == "origin"]
    assert record.levelno == logging.WARNING and getattr(record, "status", None) == 403
    assert EVIL in record.getMessage() and "/api/rooms" in record.getMessage()


async def test_every_state_changing_endpoint_is_guarded(server: LiveServer) -> None:
    writes = sorted(
        (route.path, method)
        for route in server.app.router.routes
        if isinstance(route, Route) and route.endpoint is not api_not_found
        for method in (route.methods or set()) - {"GET", "HEAD"}
    )
    assert {
        ("/api/rooms", "POST"),
        ("/api/quickplay", "POST"),
        ("/api/analysis", "POST"),
        ("/api/players", "POST"),
        ("/api/players/{player_id}", "PATCH"),
    } <= set(writes)
    headers = {"origin": EVIL, "content-type": "text/plain"}
    async with httpx.AsyncClient(base_url=server.url) as client:
        for path, method in writes:
            response = await client.request(method, path, content=b"{}", headers=headers)
            assert (response.status_code, response.json()["code"]) == (403, "origin_not_allowed")
            response = await client.request(
                method, path, content=b"{}", headers={"content-type": "text/x"}
            )
            assert response.status_code == 415, path


async def test_the_cli_and_the_bench_still_create_rooms(server: LiveServer) -> None:
    link = await asyncio.to_thread(create_room, RoomLink(server.url, None), Rules())
    assert link.room_id
    pool = HttpPool(server.url, size=1)
    try:
        room_id: Any = await pool.create_room({"rows": 3, "cols": 3})
    finally:
        await pool.close()
    assert (await server.snapshot(room_id))["status"] == "waiting"
