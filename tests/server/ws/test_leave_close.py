"""A ``leave`` the server received is recorded as a leave, even when the socket closes
before its ``ack`` (the browser sends ``leave`` and closes the tab in one turn): the
opponent sees ``left`` and the short grace every time, never a plain disconnect.

The opponent's move lands at the same moment, so an event reaches the leaving connection
while its ``leave`` is in flight or still unread: the failed send ends the connection
from outside, which is how the close overtook the leave."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.live_server import LiveServer
from tests.support.ws_client import Client

ROUNDS = 30  # before the fix 55-84 of 100 rounds were disconnects: 30 catch it all but surely
AT_ONCE = 10  # rooms raced side by side: the server interleaves their leaves and closes


async def _close_frame(client: Client) -> None:
    await client.ws.close()  # the close frame goes right behind the leave


async def _drop_transport(client: Client) -> None:
    client.ws.transport.close()  # no close frame: the TCP connection ends after the leave


@pytest.mark.parametrize("closing", [_close_frame, _drop_transport], ids=["close", "transport"])
@pytest.mark.parametrize("backend", ["memory", "redis"])
async def test_leave_then_close_at_once_is_always_a_leave(
    make_server: Callable[..., LiveServer],
    connect: Callable[..., Any],
    request: pytest.FixtureRequest,
    backend: str,
    closing: Callable[[Client], Any],
) -> None:
    changes: dict[str, Any] = {"abandon_grace": 60.0, "leave_grace": 0.5}
    changes.update(rate=1000.0, burst=1000)
    if backend == "redis":
        changes["store_url"] = request.getfixturevalue("redis_url")
    live = make_server(**changes)
    disconnects: list[dict[str, Any]] = []

    async def one_round() -> None:
        room_id = await live.create_room()
        x, o = await connect(live, room_id), await connect(live, room_id)
        assert (await x.join(name="Ada"))["type"] == "welcome"
        assert (await o.join(name="Grace"))["type"] == "welcome"
        await x.seen(o.version)
        move = {"type": "move", "row": 0, "col": 0, "version": x.version, "move_id": "m"}
        await x.ws.send(json.dumps(move))  # an event for O while its leave is in flight
        await o.ws.send(json.dumps({"type": "leave", "id": "bye"}))  # no wait for the ack
        await closing(o)
        event = await x.until("presence", mark="O", connected=False)
        if not event["left"]:
            disconnects.append(event)
            return
        assert event["claimable_at"] - event["away_since"] == pytest.approx(0.5)
        await x.close()

    for _ in range(ROUNDS // AT_ONCE):
        await asyncio.gather(*(one_round() for _ in range(AT_ONCE)))
    assert not disconnects, f"{len(disconnects)} of {ROUNDS} recorded as a disconnect"
