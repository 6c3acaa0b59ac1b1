"""The presence tests' memory setup: a clock the test moves, and a room service over a store
that the test can cut off (tests/support/cut_off.py)."""

from __future__ import annotations

import pytest

from rooms import RoomService
from tests.support.cut_off import Clock, CutOffStore


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store() -> CutOffStore:
    return CutOffStore()


@pytest.fixture
def service(store: CutOffStore) -> RoomService:
    return RoomService(store)
