"""The HTTP endpoints: create, list, read rooms; health; static files with index fallback."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.live_server import LiveServer

JSON_TYPE = {"content-type": "application/json"}


async def http(server: LiveServer, method: str, path: str, **kwargs: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as client:
        return await client.request(method, path, **kwargs)


async def test_create_a_public_room_with_rules_and_links(server: LiveServer) -> None:
    response = await http(
        server,
        "POST",
        "/api/rooms",
        json={"rules": {"rows": 6, "cols": 7, "k": 4, "gravity": True}, "public": True},
    )
    assert response.status_code == 201
    body = response.json()
    room_id = body["room_id"]
    assert len(room_id) == 8 and body["public"] is True and body["version"] == 0
    assert body["rules"] == {
        "rows": 6,
        "cols": 7,
        "k": 4,
        "gravity": True,
        "misere": False,
        "players": 2,
        "layers": 1,
        "early_draw": False,
    }
    assert body["links"] == {
        "play": f"{server.url}/r/{room_id}",
        "watch": f"{server.url}/r/{room_id}/watch",
        "ws": f"ws://127.0.0.1:{server.port}/ws/{room_id}",
        "ws_watch": f"ws://127.0.0.1:{server.port}/ws/{room_id}/watch",
    }


async def test_private_rooms_have_unguessable_ids_and_are_not_listed(server: LiveServer) -> None:
    ids = []
    for _ in range(3):
        response = await http(server, "POST", "/api/rooms", content=b"", headers=JSON_TYPE)
        assert response.status_code == 201 and response.json()["public"] is False
        ids.append(response.json()["room_id"])
    assert all(len(room_id) >= 22 for room_id in ids) and len(set(ids)) == 3
    listed = {room["room_id"] for room in (await http(server, "GET", "/api/rooms")).json()["rooms"]}
    assert not listed & set(ids)
    snapshot = (await http(server, "GET", f"/api/rooms/{ids[0]}")).json()
    assert snapshot["public"] is False and snapshot["status"] == "waiting"


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"rules": {"rows": 3, "cols": 3, "k": 4}}, 422, "invalid_rules", "k"),
        ({"rules": {"rows": 40}}, 422, "invalid_rules", "rows"),
        ({"rules": {"sides": 3}}, 422, "invalid_rules", "sides"),
        ({"rules": "3x3"}, 422, "invalid_rules", "rules"),
        ({"rules": {"gravity": "yes"}}, 422, "invalid_rules", "gravity"),
        ({"public": "yes"}, 400, "bad_message", None),
        ({"colour": "red"}, 400, "bad_message", None),
        ([1, 2], 400, "bad_message", None),
    ],
)
async def test_bad_creations_name_the_problem(
    server: LiveServer, body: Any, status: int, code: str, field: str | None
) -> None:
    before = (await http(server, "GET", "/api/rooms")).json()
    response = await http(server, "POST", "/api/rooms", json=body)
    assert response.status_code == status
    assert response.json()["code"] == code and response.json()["message"]
    assert response.json().get("field") == field
    assert (await http(server, "GET", "/api/rooms")).json() == before


async def test_body_not_json_and_too_large(server: LiveServer) -> None:
    response = await http(server, "POST", "/api/rooms", content=b"{nope", headers=JSON_TYPE)
    assert (response.status_code, response.json()["code"]) == (400, "bad_message")
    big = b"{" + b" " * 5000 + b"}"
    response = await http(server, "POST", "/api/rooms", content=big, headers=JSON_TYPE)
    assert (response.status_code, response.json()["code"]) == (413, "too_large")

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(10):
            yield b" " * 1000

    response = await http(  # no content-length
        server, "POST", "/api/rooms", content=chunks(), headers=JSON_TYPE
    )
    assert (response.status_code, response.json()["code"]) == (413, "too_large")


async def test_list_shows_waiting_then_playing_public_rooms_with_spectators(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server()
    playing = await live.create_room(public=True)
    waiting = await live.create_room(public=True)
    await live.create_room(public=False)
    clients = [await connect(live, playing) for _ in range(3)]
    await clients[0].join(name="Ada")
    await clients[1].join(name="Bob")
    await clients[2].join("spectator")
    await clients[0].seen(clients[2].version)
    rooms = (await http(live, "GET", "/api/rooms")).json()["rooms"]
    assert [(r["room_id"], r["status"]) for r in rooms] == [
        (waiting, "waiting"),
        (playing, "playing"),
    ]
    assert rooms[1]["spectators"] == 1 and rooms[1]["seats"] == 2
    assert [p["name"] for p in rooms[1]["players"]] == ["Ada", "Bob"]
    assert "token" not in str(rooms)


async def test_unknown_room_and_paths_are_404_json(server: LiveServer) -> None:
    response = await http(server, "GET", "/api/rooms/nosuchroom")
    assert (response.status_code, response.json()["code"]) == (404, "room_not_found")
    response = await http(server, "GET", "/api/elsewhere")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    response = await http(server, "DELETE", "/api/rooms")
    assert (response.status_code, response.json()["code"]) == (405, "bad_message")


async def test_health_and_readiness(make_server: Callable[..., LiveServer]) -> None:
    live = make_server()
    assert (await http(live, "GET", "/healthz")).json() == {"status": "ok"}
    ready = await http(live, "GET", "/readyz")
    assert ready.status_code == 200 and ready.json() == {"status": "ready", "store": "memory"}
    store = live.app.state.tictactoe.backend.store
    await store.close()  # the store goes away (a Redis outage, later)
    not_ready = await http(live, "GET", "/readyz")
    assert not_ready.status_code == 503 and not_ready.json()["status"] == "unavailable"
    assert (await http(live, "GET", "/healthz")).status_code == 200
    response = await http(live, "POST", "/api/rooms", json={})
    assert (response.status_code, response.json()["code"]) == (503, "unavailable")
    await store.open()


async def test_without_a_client_the_root_says_so(server: LiveServer) -> None:
    response = await http(server, "GET", "/")
    assert response.status_code == 200 and "not installed" in response.text
    assert (await http(server, "GET", "/r/abc")).status_code == 404


async def test_static_client_with_index_fallback(
    make_server: Callable[..., LiveServer], tmp_path: Path
) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>ttt</title>")
    (static / "app.js").write_text("export const ok = true;")
    live = make_server(static_dir=static)
    index = await http(live, "GET", "/")
    assert index.status_code == 200 and "<title>ttt</title>" in index.text
    assert "export const ok" in (await http(live, "GET", "/app.js")).text
    for route in ("/r/q7m2kx9c", "/r/q7m2kx9c/watch"):
        page = await http(live, "GET", route)
        assert page.status_code == 200 and "<title>ttt</title>" in page.text
    assert (await http(live, "GET", "/missing.js")).status_code == 404
    assert (await http(live, "GET", "/api/rooms")).json() == {"rooms": []}
    assert (await http(live, "GET", "/../pyproject.toml")).status_code == 404
