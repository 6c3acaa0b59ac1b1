"""A text frame that is not valid UTF-8 is abuse: closed with 1007 (docs/protocol.md, "Close
codes") and logged once at WARNING naming its room and connection, never with a traceback:
on the fastpath uvicorn's protocol subclass refuses it quietly
(server.fastpath.uvicorn_protocols); with ``--no-fastpath`` uvicorn's own ERROR record is
dropped by a filter on its logger (server.logs.quiet)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from server.logs import ContextFilter
from tests.support.live_server import LiveServer


@pytest.mark.parametrize("fastpath", [True, False], ids=["fastpath", "plain"])
async def test_invalid_utf8_closes_with_1007_and_logs_one_warning(
    fastpath: bool,
    make_server: Callable[..., LiveServer],
    connect: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.handler.addFilter(ContextFilter())  # as the configured handler does
    caplog.set_level(logging.WARNING)
    server = make_server(fastpath=fastpath)  # configures uvicorn's loggers: hook in after
    uvicorn_logger = logging.getLogger("uvicorn")  # uvicorn's loggers do not reach the root
    uvicorn_logger.addHandler(caplog.handler)
    try:
        await check(fastpath, server, connect, caplog)
    finally:
        uvicorn_logger.removeHandler(caplog.handler)


async def check(
    fastpath: bool,
    server: LiveServer,
    connect: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    room_id = await server.create_room()
    client = await connect(server, room_id)
    await client.join("spectator")
    await client.ws.send(b'{"type": "ping", "x": "\xff\xfe"}', text=True)  # a Text frame
    assert await client.wait_closed() == 1007
    refusals = [r for r in caplog.records if getattr(r, "refusal", None) == "invalid_utf8"]
    assert len(refusals) == 1
    (record,) = refusals
    assert record.levelno == logging.WARNING
    assert record.close_code == 1007  # type: ignore[attr-defined]
    assert record.room == room_id  # type: ignore[attr-defined]
    assert record.conn  # type: ignore[attr-defined]
    assert [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []
