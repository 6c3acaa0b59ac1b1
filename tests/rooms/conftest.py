"""Backends every store/bus contract test runs against (the Redis issue adds ``redis://``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from room_helpers import BACKEND_URLS, CONTRACT_LOG_SIZE

from rooms import Backend, BackendOptions, open_backend


@pytest.fixture(params=BACKEND_URLS)
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    opened = open_backend(request.param, BackendOptions(log_size=CONTRACT_LOG_SIZE))
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()
