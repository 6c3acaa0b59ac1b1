"""``POST /api/quickplay`` with a ``join_key``: a repeat gets the same room and seat with a fresh
token; a malformed key is a typed 400."""

from __future__ import annotations

import re
import secrets
from typing import Any

import httpx
import pytest

from tests.support.live_server import LiveServer


async def quickplay(server: LiveServer, **body: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return await http.post("/api/quickplay", json={"rules": {"rows": 6, "cols": 9}, **body})


async def test_a_repeat_gets_the_same_seat_with_a_fresh_token(server: LiveServer) -> None:
    mine = secrets.token_urlsafe(16)
    first = (await quickplay(server, name="Ada", join_key=mine)).json()
    again = await quickplay(server, name="Ada", join_key=mine)
    assert again.status_code == 200 and again.headers["cache-control"] == "no-store"
    body = again.json()
    assert (body["room_id"], body["mark"], body["matched"]) == (
        first["room_id"],
        first["mark"],
        first["matched"],
    )
    assert body["token"] not in (None, first["token"])
    other = (await quickplay(server, join_key=secrets.token_urlsafe(16))).json()
    assert (other["room_id"], other["matched"]) == (first["room_id"], True)
    assert other["mark"] != first["mark"]
    players = (await server.snapshot(first["room_id"]))["players"]
    names = sorted(p["name"] for p in players)  # no name given: a neutral guest, not a mark
    assert names[0] == "Ada" and re.fullmatch(r"Guest [0-9]{4}", names[1])


@pytest.mark.parametrize("key", ["short", "x" * 129, "not url safe!" * 3, 42, ["k" * 22]])
async def test_a_malformed_key_is_a_typed_400(server: LiveServer, key: object) -> None:
    response = await quickplay(server, join_key=key)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_message" and "join_key must be 22 to 128" in body["message"]
