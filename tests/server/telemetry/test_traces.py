"""``tictactoe serve --otlp-endpoint``: spans of HTTP requests and room commands reach a
real OTLP/HTTP receiver started here (tests/support/receivers.py), and the JSON log lines
written inside a span carry its trace id."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.asyncio.client import connect

from server.metrics import version
from server.telemetry.tracing import STOP_WAIT
from tests.support.receivers import OtlpReceiver, ReceivedSpan
from tests.support.redis_server import free_port
from tests.support.server_process import Fleet, ServerProcess, create_room
from tests.support.waiting import eventually
from tests.support.ws_client import Client

SERVER_KIND = 2  # opentelemetry.proto Span.SpanKind.SPAN_KIND_SERVER
ERROR = 2  # Status.StatusCode.STATUS_CODE_ERROR
CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"


@pytest.fixture
def receiver() -> Iterator[OtlpReceiver]:
    with OtlpReceiver() as started:
        yield started


def traced_server(fleet: Fleet, receiver: OtlpReceiver) -> ServerProcess:
    serve = fleet.launch(
        "--otlp-endpoint",
        receiver.endpoint,
        "--log-format",
        "json",
        "--log-level",
        "info",  # uvicorn's access lines, written inside the request's span
        env={"OTEL_BSP_SCHEDULE_DELAY": "100"},  # batches every 0.1 s, not 5 s
    )
    serve.wait_ready()
    return serve


async def test_http_requests_and_room_commands_reach_the_collector(
    fleet: Fleet, receiver: OtlpReceiver
) -> None:
    serve = traced_server(fleet, receiver)
    traceparent = f"00-{CALLER_TRACE}-{CALLER_SPAN}-01"
    async with httpx.AsyncClient() as http:
        listed = await http.get(
            f"{serve.url}/api/rooms", headers={"traceparent": traceparent}, timeout=10
        )
        assert listed.status_code == 200
    room_id = await create_room(serve, {}, public=False)
    x, o = [Client(await connect(serve.ws(room_id), proxy=None)) for _ in range(2)]
    try:
        for player in (x, o):
            assert (await player.join("player"))["type"] == "welcome"
        assert (await x.move(1, 1))["type"] == "move_ok"
        await o.seen(x.version)
        assert (await o.move(1, 1))["code"] == "occupied"
    finally:
        for client in (x, o):
            await client.close()

    async def arrived() -> bool:
        return len(receiver.named("room move")) >= 2 and bool(receiver.named("GET /api/rooms"))

    await eventually(arrived, "the spans at the collector")
    assert receiver.paths and set(receiver.paths) == {"/v1/traces"}

    (listing,) = receiver.named("GET /api/rooms")
    assert listing.kind == SERVER_KIND
    assert (listing.trace_id, listing.parent_id) == (CALLER_TRACE, CALLER_SPAN)  # continued
    assert listing.attributes["http.route"] == "/api/rooms"
    assert listing.attributes["http.request.method"] == "GET"
    assert listing.attributes["http.response.status_code"] == 200
    assert listing.resource["service.name"] == "tictactoe-server"
    assert listing.resource["service.version"] == version()

    (created,) = receiver.named("POST /api/rooms")
    assert created.attributes["http.response.status_code"] in (200, 201)
    joins = receiver.named("room join")
    assert len(joins) == 2
    assert all(span.attributes["tictactoe.room_id"] == room_id for span in joins)
    moves = receiver.named("room move")
    landed, refused = _split(moves)
    assert landed.attributes["tictactoe.message.type"] == "move"
    assert refused.attributes["tictactoe.error.code"] == "occupied"
    assert refused.status != ERROR  # a refused move is an answer, not a server error
    assert len({span.trace_id for span in moves + joins}) == 4  # one trace each

    # the access line of the traced request names its trace
    lines = [json.loads(line) for line in serve.log.splitlines() if line.startswith("{")]
    access = [
        line
        for line in lines
        if line["logger"] == "uvicorn.access" and "/api/rooms" in line["message"]
    ]
    traced = [line for line in access if line.get("trace_id") == CALLER_TRACE]
    assert len(traced) == 1, access
    assert traced[0]["span_id"] == listing.span_id


def _split(moves: list[ReceivedSpan]) -> tuple[ReceivedSpan, ReceivedSpan]:
    (landed,) = [span for span in moves if "tictactoe.error.code" not in span.attributes]
    (refused,) = [span for span in moves if "tictactoe.error.code" in span.attributes]
    return landed, refused


async def test_no_endpoint_no_spans_and_no_trace_ids(fleet: Fleet, receiver: OtlpReceiver) -> None:
    serve = fleet.launch("--log-format", "json", "--log-level", "info")
    serve.wait_ready()
    async with httpx.AsyncClient() as http:
        assert (await http.get(f"{serve.url}/api/rooms", timeout=10)).status_code == 200
    assert not any('"trace_id"' in line for line in serve.log.splitlines())
    assert receiver.paths == []


async def test_a_collector_that_does_not_answer_neither_fails_requests_nor_holds_the_stop(
    fleet: Fleet,
) -> None:
    dead = free_port()  # nothing listens there: every export is refused and retried
    serve = fleet.launch(
        "--otlp-endpoint",
        f"http://127.0.0.1:{dead}",
        # the exporter retries a batch until this deadline: a stop that waited for it would
        # take about a minute, one that waits STOP_WAIT a few seconds even on a busy host
        env={"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "60"},
    )
    serve.wait_ready()
    async with httpx.AsyncClient() as http:
        for _ in range(20):
            assert (await http.get(f"{serve.url}/api/rooms", timeout=10)).status_code == 200
    await asyncio.sleep(1)  # a batch on its way, retrying
    started = time.monotonic()
    assert serve.stop() == 130, serve.log_tail()
    assert time.monotonic() - started < STOP_WAIT + 15, serve.log_tail()
