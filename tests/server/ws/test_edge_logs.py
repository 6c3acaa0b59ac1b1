"""Each refusal at the edge is logged once, at WARNING, naming its room and connection
(server.ws.session, server.ws.socket; the context comes from server.logs)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from server.logs import ContextFilter
from tests.support.live_server import LiveServer


def refusals(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if hasattr(r, "refusal")]


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.handler.addFilter(ContextFilter())  # as the configured handler does
    caplog.set_level(logging.WARNING, logger="tictactoe.server")
    return caplog


async def test_origin_frame_binary_and_message_refusals_are_logged_once(
    server: LiveServer, connect: Callable[..., Any], logged: pytest.LogCaptureFixture
) -> None:
    room_id = await server.create_room()
    with pytest.raises(InvalidStatus):
        await ws_connect(server.ws_url(room_id), origin=Origin("http://evil.example"), proxy=None)
    big = await connect(server, room_id)
    await big.join("spectator")
    await big.send(json.dumps({"type": "ping", "pad": "x" * 20_000}))
    assert await big.wait_closed() == 1009
    binary = await connect(server, room_id)
    await binary.send(b"\x00\xff")
    assert await binary.wait_closed() == 1003
    wordy = await connect(server, room_id)
    for _ in range(3):  # answered each time, logged the first time
        error = await wordy.reply({"type": "ping", "pad": "x" * 5000})
        assert error["code"] == "too_large"
    records = refusals(logged)
    kinds = [r.refusal for r in records]  # type: ignore[attr-defined]
    assert sorted(kinds) == ["binary_frame", "frame_too_big", "message_too_large", "origin"]
    for record in records:
        assert record.levelno == logging.WARNING
        assert record.room == room_id  # type: ignore[attr-defined]
        assert record.conn  # type: ignore[attr-defined]
    codes = {r.refusal: getattr(r, "close_code", None) for r in records}  # type: ignore[attr-defined]
    assert codes["frame_too_big"] == 1009 and codes["binary_frame"] == 1003
    assert len({r.conn for r in records}) == 4  # type: ignore[attr-defined]
