"""``tictactoe serve --log-format json``: a real server's stderr, one JSON object a line,
with the worker, room and connection, each edge refusal once, and never a seat token."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

import pytest
import websockets
from websockets.typing import Origin

from tests.support.server_process import Fleet, ServerProcess, create_room


def _json_lines(server: ServerProcess) -> list[dict[str, Any]]:
    """Every log line as JSON (the one plain line is the URL printed on stdout)."""
    lines = [line for line in server.log.splitlines() if line.strip()]
    plain = [line for line in lines if not line.startswith("{")]
    assert all(line.startswith("tictactoe: serving on") for line in plain), plain
    return [json.loads(line) for line in lines if line.startswith("{")]


async def _origin_refusal_and_flood(server: ServerProcess, room_id: str) -> tuple[str, int]:
    """Refused for its Origin, then a player who resumes with its token and floods: the
    token and the flooder's close code."""
    with pytest.raises(websockets.InvalidStatus, match="403"):
        async with websockets.connect(server.ws(room_id), origin=Origin("https://evil.example")):
            pass
    async with websockets.connect(server.ws(room_id)) as first:
        await first.send(json.dumps({"type": "join", "as": "player", "name": "Ada"}))
        token = json.loads(await first.recv())["token"]
    async with websockets.connect(server.ws(room_id)) as again:
        await again.send(json.dumps({"type": "join", "as": "player", "token": token}))
        assert json.loads(await again.recv())["type"] == "welcome"
        for _ in range(12):
            await again.send(json.dumps({"type": "sync"}))
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await asyncio.wait_for(again.recv(), 10)
        assert again.close_code is not None
        return token, again.close_code


@pytest.mark.process
async def test_json_logs_carry_the_context_and_each_refusal_once(fleet: Fleet) -> None:
    server = fleet.launch(
        "--log-format", "json", "--log-level", "info",
        "--rate", "1", "--burst", "2", "--flood-strikes", "3",
    )  # fmt: skip
    server.wait_ready()
    room_id = await create_room(server, {}, public=False)
    token, code = await _origin_refusal_and_flood(server, room_id)
    assert code == 4008
    server.stop()
    lines = _json_lines(server)
    assert token not in server.log
    for line in lines:
        assert {"time", "level", "logger", "message", "worker"} <= line.keys(), line
        moment = datetime.fromisoformat(line["time"].replace("Z", "+00:00"))
        assert line["time"].endswith("Z") and moment.tzinfo == UTC
    loggers = {line["logger"] for line in lines}
    assert {"uvicorn.error", "uvicorn.access", "tictactoe.rooms"} <= loggers  # one format
    refusals = [line for line in lines if "refusal" in line]
    assert [r["refusal"] for r in refusals] == ["origin", "flood"], refusals
    origin, flood = refusals
    for refusal in refusals:
        assert refusal["level"] == "warning" and refusal["logger"] == "tictactoe.server"
        assert refusal["room"] == room_id
        # connection ids name their worker, whose id every line inside the app carries
        assert refusal["conn"].startswith(refusal["worker"] + ".")
    assert origin["status"] == 403 and "evil.example" in origin["message"]
    assert flood["close_code"] == 4008 and flood["conn"] != origin["conn"]
    # uvicorn's own line about the flooder's socket names the same connection
    accepted = [line for line in lines if "[accepted]" in line["message"]]
    assert flood["conn"] in {line.get("conn") for line in accepted}


@pytest.mark.process
async def test_debug_level_reaches_every_logger_without_a_token(fleet: Fleet) -> None:
    server = fleet.launch("--log-level", "debug", "--log-format", "json")
    server.wait_ready()
    room_id = await create_room(server, {}, public=False)
    async with websockets.connect(server.ws(room_id)) as ws:
        await ws.send(json.dumps({"type": "join", "as": "player", "name": "Ada"}))
        token = json.loads(await ws.recv())["token"]
    async with websockets.connect(server.ws(room_id)) as ws:
        await ws.send(json.dumps({"type": "join", "as": "player", "token": token}))
        assert json.loads(await ws.recv())["type"] == "welcome"
    server.stop()
    lines = _json_lines(server)
    assert token not in server.log
    assert any(line["level"] == "debug" for line in lines)  # TICTACTOE_LOG_LEVEL respected
    frames = [line for line in lines if line["message"].startswith(("< TEXT", "> TEXT"))]
    assert frames and all("bytes]" in line["message"] for line in frames)


@pytest.mark.process
def test_text_logs_have_a_level_and_a_time(fleet: Fleet) -> None:
    server = fleet.launch("--log-level", "info", env={"TICTACTOE_LOG_FORMAT": "text"})
    server.wait_ready()
    server.stop()
    started = [line for line in server.log.splitlines() if "Application startup complete" in line]
    assert len(started) == 1 and " INFO uvicorn.error [" in started[0]
    datetime.fromisoformat(started[0].split(" ")[0].replace("Z", "+00:00"))
