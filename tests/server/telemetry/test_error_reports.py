"""``tictactoe serve`` with a Sentry DSN: an internal error reaches a real local Sentry
endpoint (tests/support/receivers.py), as an event tagged with the release; and a DSN
without its extra, or a malformed one, stops the start with one line."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect

from server.crash_points import AFTER_SEAT, RAISE_ENV
from server.metrics import version
from tests.support.receivers import SentryReceiver
from tests.support.server_process import Fleet, create_room
from tests.support.waiting import eventually
from tests.support.ws_client import Client


@pytest.fixture
def receiver() -> Iterator[SentryReceiver]:
    with SentryReceiver() as started:
        yield started


async def test_an_internal_error_is_reported_with_the_release(
    fleet: Fleet, receiver: SentryReceiver
) -> None:
    serve = fleet.launch(
        env={"TICTACTOE_SENTRY_DSN": receiver.dsn, RAISE_ENV: AFTER_SEAT},
    )
    serve.wait_ready()
    room_id = await create_room(serve, {}, public=False)
    player = Client(await connect(serve.ws(room_id), proxy=None))
    try:
        answer = await player.join("player")  # the seat commits, then the deliberate failure
        assert answer["type"] == "error" and answer["code"] == "internal_error", answer
    finally:
        await player.close()

    async def reported() -> list[dict[str, Any]] | None:
        return receiver.events or None

    (event,) = await eventually(reported, "the error report at the Sentry endpoint")
    assert event["release"] == f"tictactoe-server@{version()}"
    assert event["level"] == "error"
    assert event["tags"]["store"] == "memory"
    (exception,) = event["exception"]["values"]
    assert exception["type"] == "RuntimeError"
    assert exception["value"] == f"deliberate failure at {AFTER_SEAT} ({RAISE_ENV})"
    assert "internal error while handling a message" in event["logentry"]["message"]
    assert "user" not in event or "ip_address" not in event["user"]  # no personal data
    headers = {envelope[0].get("dsn") for envelope in receiver.envelopes}
    assert headers <= {receiver.dsn, None}


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("TICTACTOE_SENTRY_DSN", "not a url", "TICTACTOE_SENTRY_DSN): must be an http"),
        ("TICTACTOE_SENTRY_DSN", "https://sentry.example/1", "must name the project's public key"),
        ("TICTACTOE_OTLP_ENDPOINT", "grpc://collector:4317", "must be an http:// or https:// URL"),
        ("TICTACTOE_METRICS_ADDRESS", "9100", "must be host:port, got '9100'"),
    ],
)
def test_bad_observability_settings_stop_the_start_in_one_line(
    fleet: Fleet, variable: str, value: str, said: str
) -> None:
    serve = fleet.launch(env={variable: value})
    assert serve.process.wait(timeout=60) == 2
    assert said in serve.log, serve.log
