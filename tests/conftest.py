"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.backends import BackendMaker


@pytest.fixture
async def makers() -> AsyncIterator[list[BackendMaker]]:
    """Backend makers a test adds to; every one is closed at teardown."""
    made: list[BackendMaker] = []
    try:
        yield made
    finally:
        for maker in made:
            await maker.close()
