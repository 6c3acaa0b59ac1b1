"""A request that does not parse as HTTP (docs/protocol.md, "HTTP endpoints"): on the
fastpath it gets the typed ``{"code", "message"}`` body of every other error; with
``--no-fastpath`` uvicorn's own plain-text 400. Either way one WARNING, never a traceback."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable

import pytest

from tests.support.live_server import LiveServer

BAD_REQUESTS = [
    b"GET /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
    b"GET /api/rooms HTTP/1.1\r\nHost: x\r\nBad Header: value\r\n\r\n",
    b"NOT A REQUEST\r\n\r\n",
]


async def _exchange(server: LiveServer, request: bytes) -> tuple[bytes, dict[str, str], bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(request)
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 20)  # the server closes: read to the end
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    status, *lines = head.split(b"\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.decode().partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


@pytest.mark.parametrize("request_bytes", BAD_REQUESTS, ids=["length", "header", "line"])
@pytest.mark.parametrize("fastpath", [True, False], ids=["fastpath", "plain"])
async def test_a_request_that_does_not_parse_gets_400(
    fastpath: bool,
    request_bytes: bytes,
    make_server: Callable[..., LiveServer],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    server = make_server(fastpath=fastpath)
    uvicorn_logger = logging.getLogger("uvicorn")  # uvicorn's loggers do not reach the root
    uvicorn_logger.addHandler(caplog.handler)
    try:
        status, headers, body = await _exchange(server, request_bytes)
    finally:
        uvicorn_logger.removeHandler(caplog.handler)
    assert status == b"HTTP/1.1 400 Bad Request"
    assert headers["connection"] == "close"
    if fastpath:
        assert headers["content-type"] == "application/json"
        answer = json.loads(body)
        assert answer["code"] == "bad_message"
        assert "could not be parsed" in answer["message"]
    else:
        assert headers["content-type"].startswith("text/plain")
        assert body == b"Invalid HTTP request received."
    assert [r.getMessage() for r in caplog.records] == ["Invalid HTTP request received."]
    assert not any(r.exc_info for r in caplog.records)
