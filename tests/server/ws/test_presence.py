"""The worker's presence in a live server: connection ids name the worker, a join indexes
the room and the last departure unindexes it, and a lost lease closes the connection with
1012 so the client resumes (under the worker's new id). Settings and flags are checked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rooms import worker_of
from rooms.protocol import decode_room
from server import Settings, SettingsError
from server.state import app_state
from tests.support.live_server import LiveServer
from tests.support.waiting import eventually

WAIT = 20.0


async def test_a_join_is_indexed_under_the_worker_and_unindexed_after_the_last_leave(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    presence = app_state(server.app).presence
    room_id = await server.create_room()
    player, watcher = await connect(server, room_id), await connect(server, room_id)
    await player.join(name="Ada")
    await watcher.join("spectator")
    stored = await app_state(server.app).backend.store.load(room_id)
    assert stored is not None
    room = decode_room(stored.data)
    conns = [*room.seats[0].connections, *room.spectators]
    assert len(conns) == 2 and {worker_of(conn) for conn in conns} == {presence.worker}
    assert room_id in await presence.registry.rooms(presence.worker, 1000)

    await player.close()

    async def still_indexed() -> bool:  # the spectator is still here
        return room_id in await presence.registry.rooms(presence.worker, 1000)

    await eventually(lambda: _seat_gone(server, room_id), "the player's departure recorded")
    assert await still_indexed()
    await watcher.close()

    async def unindexed() -> bool:
        return not await still_indexed()

    await eventually(unindexed, "unindexed after the last connection left")


async def _seat_gone(server: LiveServer, room_id: str) -> bool:
    return (await server.snapshot(room_id))["players"][0]["connected"] is False


async def test_a_lost_lease_closes_connections_with_1012_and_they_resume(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server(lease_ttl=0.6, sweep_interval=0.1, rate=1000.0, burst=1000)
    presence = app_state(live.app).presence
    room_id = await live.create_room()
    player = await connect(live, room_id)
    token = (await player.join(name="Ada"))["token"]
    old = presence.worker
    await presence.registry.release(old)  # as if it had expired and another worker claimed

    async def closed() -> bool:
        return player.close_code is not None

    await eventually(closed, "the connections closed")
    assert player.close_code == 1012  # resume: this worker cannot vouch for the connection
    assert presence.worker != old and presence.losses == 1
    again = await connect(live, room_id)
    welcome = await again.join(token=token)
    assert welcome["mark"] == "X" and welcome["state"]["players"][0]["connected"] is True
    assert room_id in await presence.registry.rooms(presence.worker, 1000)


@pytest.mark.parametrize("field", ["lease_ttl", "sweep_interval"])
def test_presence_settings_must_be_positive(field: str) -> None:
    with pytest.raises(SettingsError) as info:
        Settings(**{field: 0})  # type: ignore[arg-type]
    assert info.value.field == field
    env = Settings.from_env({"TICTACTOE_LEASE_TTL": "2.5", "TICTACTOE_SWEEP_INTERVAL": "0.5"})
    assert (env.lease_ttl, env.sweep_interval) == (2.5, 0.5)
    assert (Settings().lease_ttl, Settings().sweep_interval) == (15.0, 5.0)
