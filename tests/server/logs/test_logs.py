"""server.logs: the JSON and text lines, the context they carry, the one configuration."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
from datetime import UTC, datetime

import pytest

from rooms.bots.tokens import new_bot_token
from server.logs import (
    LOG_LEVELS,
    ContextFilter,
    JsonFormatter,
    TextFormatter,
    connection_context,
    log_config,
    use_worker_id,
)
from server.logs.redact import TokenRedactor


def _logger(formatter: logging.Formatter) -> tuple[logging.Logger, io.StringIO]:
    """A logger of this test with the handler log_config builds: context, redaction."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    handler.addFilter(ContextFilter())
    handler.addFilter(TokenRedactor())
    logger = logging.getLogger(f"tictactoe-test.{id(stream)}")
    logger.handlers = [handler]
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    return logger, stream


def _lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_a_json_line_carries_time_level_logger_message_and_worker() -> None:
    use_worker_id(None)  # as before an app starts (an app's lifespan gives it back too)
    logger, stream = _logger(JsonFormatter())
    logger.info("hello %s", "there")
    (line,) = _lines(stream)
    assert line["level"] == "info" and line["logger"] == logger.name
    assert line["message"] == "hello there"
    assert line["worker"] == str(os.getpid())  # no presence yet: the process id
    assert "room" not in line and "conn" not in line and "exc" not in line
    time = str(line["time"])
    assert time.endswith("Z")
    assert datetime.fromisoformat(time.replace("Z", "+00:00")).tzinfo == UTC


def test_inside_a_connection_lines_name_the_room_and_connection_even_in_its_tasks() -> None:
    logger, stream = _logger(JsonFormatter())
    use_worker_id(lambda: "w1")
    try:

        async def handle() -> None:
            with connection_context("room1", "w1.c1"):
                logger.warning("refused", extra={"close_code": 4008})
                await asyncio.create_task(asyncio.to_thread(logger.info, "in a thread"))
            logger.info("after")

        asyncio.run(handle())
    finally:
        use_worker_id(None)
    refused, threaded, after = _lines(stream)
    assert refused == {**refused, "room": "room1", "conn": "w1.c1", "worker": "w1"}
    assert refused["close_code"] == 4008 and refused["level"] == "warning"
    assert threaded["room"] == "room1" and threaded["conn"] == "w1.c1"
    assert "room" not in after and after["worker"] == "w1"


def test_an_exception_is_one_json_field() -> None:
    logger, stream = _logger(JsonFormatter())
    try:
        raise ValueError("broken")
    except ValueError:
        logger.exception("it failed")
    (line,) = _lines(stream)
    assert line["message"] == "it failed"
    assert "Traceback" in str(line["exc"]) and "ValueError: broken" in str(line["exc"])


def test_seat_tokens_never_reach_a_line() -> None:
    secret = "Qw" * 22
    for formatter in (JsonFormatter(), TextFormatter()):
        logger, stream = _logger(formatter)
        logger.debug("got %s", f'{{"type": "join", "token": "{secret}"}}')
        assert secret not in stream.getvalue() and "***" in stream.getvalue()


def test_bot_tokens_never_reach_a_line() -> None:
    """A bot's API token (rooms.bots.tokens) in a ``bot_token`` field, or quoted anywhere."""
    token = new_bot_token("Rb0tQ2a-8sLw2xYt")
    for formatter in (JsonFormatter(), TextFormatter()):
        logger, stream = _logger(formatter)
        logger.debug("got %s", f'{{"type": "join", "bot_token": "{token}"}}')
        logger.warning("presented %s", token)
        written = stream.getvalue()
        assert token.rsplit(".", 1)[1] not in written and written.count("***") == 2


def test_a_text_line_has_the_same_fields() -> None:
    logger, stream = _logger(TextFormatter())
    with connection_context("room1", "w.c"):
        logger.warning("refused a client", extra={"close_code": 4009})
    line = stream.getvalue().strip()
    assert " WARNING " in line and f" {logger.name} " in line
    assert f"[{os.getpid()} room1 w.c] refused a client close_code=4009" in line


@pytest.mark.parametrize("level", LOG_LEVELS)
@pytest.mark.parametrize("log_format", ["text", "json"])
def test_one_configuration_for_uvicorn_the_app_and_the_rest(level: str, log_format: str) -> None:
    config = log_config(level, log_format)
    loggers = config["loggers"]
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "tictactoe"):
        assert loggers[name]["level"] == level.upper(), name
    assert config["root"]["level"] == level.upper()
    # every record ends in the one handler, which adds the context and redacts tokens
    handlers = {
        h for entry in [*loggers.values(), config["root"]] for h in entry.get("handlers", [])
    }
    assert handlers == {"stderr"}
    assert config["handlers"]["stderr"]["filters"] == ["context", "redact"]
    assert config["disable_existing_loggers"] is False
    formatter = config["formatters"]["main"]["()"]
    assert formatter.endswith("JsonFormatter" if log_format == "json" else "TextFormatter")


def test_an_unknown_level_or_format_is_refused() -> None:
    with pytest.raises(ValueError, match="verbose"):
        log_config("verbose")
    with pytest.raises(ValueError, match="xml"):
        log_config("info", "xml")
