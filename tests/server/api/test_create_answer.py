"""The answer to ``POST /api/rooms`` is the compact JSON a ``JSONResponse`` would send,
byte for byte, with the same content type (it is encoded by orjson: rooms.common.jsontext)."""

from __future__ import annotations

import json

import httpx
from starlette.responses import JSONResponse

from tests.support.live_server import LiveServer


async def test_the_created_rooms_answer_is_what_json_response_would_send(
    server: LiveServer,
) -> None:
    bodies = [
        {"rules": {"rows": 6, "cols": 7, "k": 4, "gravity": True}, "public": True},
        {"rules": {}, "time_control": {"initial": 60, "increment": 2.5}},
        {"rules": {"rows": 4, "cols": 4, "layers": 4}, "bot": "bot:random"},
    ]
    async with httpx.AsyncClient(base_url=server.url) as client:
        for body in bodies:
            response = await client.post("/api/rooms", json=body)
            assert response.status_code == 201, response.text
            assert response.headers["content-type"] == "application/json"
            expected = JSONResponse(json.loads(response.content), status_code=201)
            assert response.content == expected.body
            assert response.headers["content-length"] == str(len(expected.body))
