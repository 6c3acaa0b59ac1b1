"""A failed start says why in one line (server/launch/startup.py): uvicorn logs the exception's own
line, not Starlette's traceback, and the server does not start."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from uvicorn import Config
from uvicorn.lifespan.on import LifespanOn

from server.launch.startup import OneLineStartupFailure, one_line


@asynccontextmanager
async def failing(app: Starlette) -> AsyncIterator[None]:
    raise RuntimeError("the store at redis://127.0.0.1:1 is unreachable")
    yield  # pragma: no cover  (a lifespan is a generator)


async def start(app: Starlette, caplog: pytest.LogCaptureFixture) -> tuple[LifespanOn, str]:
    config = Config(app, lifespan="on", log_config=None)
    config.load()
    lifespan = LifespanOn(config)
    with caplog.at_level(logging.DEBUG):
        await lifespan.startup()
    errors = [r for r in caplog.records if r.name == "uvicorn.error" and r.levelno >= logging.ERROR]
    return lifespan, "\n".join(r.getMessage() for r in errors)


async def test_a_failed_start_is_logged_in_one_line(caplog: pytest.LogCaptureFixture) -> None:
    app = Starlette(lifespan=failing, middleware=[Middleware(OneLineStartupFailure)])
    lifespan, logged = await start(app, caplog)
    assert lifespan.should_exit
    assert "startup failed: RuntimeError: the store at redis://127.0.0.1:1 is unreachable" in (
        logged
    )
    assert "Traceback" not in logged
    debug = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert any("Traceback" in line for line in debug)  # the whole story, for whoever asks


async def test_without_it_uvicorn_logs_the_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """What the middleware is for (and proof that the test above can fail)."""
    lifespan, logged = await start(Starlette(lifespan=failing), caplog)
    assert lifespan.should_exit and "Traceback" in logged


def test_one_line_is_the_last_line_of_the_report() -> None:
    report = 'Traceback (most recent call last):\n  File "x", line 1\nValueError: bad\n\n'
    assert one_line(report) == "ValueError: bad"
    assert one_line("   ") == "unknown error"
