"""A joined connection whose room no longer holds it: another worker evicted it (this
worker's lease lapsed while it was cut off from Redis, and the other swept its connections)
before this one noticed. Its next command must not be refused for good with ``not_joined``:
the session closes with 1012, nothing was applied, and the client resumes and sends it
again."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from rooms.room.commands import Evict
from server.state import app_state
from tests.support.live_server import LiveServer
from tests.support.ws_client import table


async def test_an_evicted_connection_closes_with_1012_and_its_move_lands_after_resuming(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    server = make_server()
    room_id, x, o, _ = await table(server, connect)
    assert x.welcome is not None
    token = x.welcome["token"]
    state = app_state(server.app)
    assert state.lag._task is not None
    loop = state.lag._task.get_loop()

    async def sweep() -> None:  # as the sweeper of another worker does, seat by seat
        while (await state.service.execute(room_id, Evict(state.presence.worker))).event:
            pass

    await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(sweep(), loop))
    before = await server.stored(room_id)
    await x.send({"type": "move", "row": 1, "col": 1, "version": x.version, "move_id": "m1"})
    assert await x.wait_closed() == 1012
    assert not [m for m in x.log if m.get("type") == "error"]  # no refusal to believe
    assert (await server.stored(room_id))["moves"] == before["moves"]  # nothing applied
    back = await connect(server, room_id)
    assert (await back.join(token=token, last_version=x.version))["type"] == "welcome"
    assert (await back.move(1, 1))["type"] == "move_ok"
    await o.close()
