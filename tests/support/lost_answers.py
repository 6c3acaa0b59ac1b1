"""A live server whose store loses the answer of the next seat-taking join with a join key:
the Join is committed, then its caller gets ``code`` as if the store had failed mid-way (the
case docs/protocol.md's 1012 close and the join_key retry are for)."""

from __future__ import annotations

from typing import Any

import pytest

from rooms import ErrorCode, RoomError
from rooms.room import Join
from server.state import app_state
from tests.support.live_server import LiveServer

__all__ = ["lose_next_join_answer"]


def lose_next_join_answer(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch, code: ErrorCode = ErrorCode.UNAVAILABLE
) -> list[Join]:
    """Patch ``server``'s service; the Joins whose answer was lost (one at most)."""
    service = app_state(server.app).service
    execute = service.execute
    lost: list[Join] = []

    async def landed_then_lost(room_id: str, command: Any, **options: Any) -> Any:
        executed = await execute(room_id, command, **options)
        if isinstance(command, Join) and command.join_key is not None and not lost:
            lost.append(command)  # the seat is taken, but the answer never comes back
            raise RoomError(code, "the store did not answer")
        return executed

    monkeypatch.setattr(service, "execute", landed_then_lost)
    return lost
