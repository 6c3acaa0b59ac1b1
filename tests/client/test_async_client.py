"""client.aio against a real server on a real port: ``open_joined`` answers the welcome or the
refusal; an ``AsyncRoomClient`` rejoins by itself when its connection is killed, and a move
whose answer was lost is sent again with the same ``move_id`` and lands once."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from client import Refused, Seat
from client.aio import AsyncRoomClient, open_joined
from tests.support.live_server import LiveServer
from tests.support.losing_relay import losing_relay
from tests.support.waiting import eventually


@pytest.fixture
async def clients() -> AsyncIterator[list[AsyncRoomClient]]:
    made: list[AsyncRoomClient] = []
    yield made
    for client in made:
        await client.close()


async def test_open_joined_answers_the_welcome_or_the_refusal(server: LiveServer) -> None:
    room_id = await server.create_room()
    ws, welcome = await open_joined(server.ws_url(room_id), Seat("player", "Ada").join_message())
    async with ws:
        assert welcome["type"] == "welcome" and welcome["mark"] == "X" and welcome["token"]
    ws, refused = await open_joined(
        server.ws_url("nosuchroom"), {"type": "join", "as": "spectator"}
    )
    async with ws:
        assert refused["type"] == "error" and refused["code"] == "room_not_found"


async def test_it_rejoins_by_itself_after_the_connection_is_killed(
    server: LiveServer, connect: Callable[..., Any], clients: list[AsyncRoomClient]
) -> None:
    room_id = await server.create_room()
    x = AsyncRoomClient(server.ws_url(room_id), Seat("player", "Ada"))
    clients.append(x)
    await x.join()
    o = await connect(server, room_id)
    await o.join()
    await x.until(lambda: x.my_turn)
    assert x.room.status == "playing" and x.room.players[0]["name"] == "Ada"
    token = x.token
    assert x.line is not None
    x.line.abort()  # the network drops: no close frame
    await o.until("presence", mark="X", connected=False)
    await o.until("presence", mark="X", connected=True)
    landed = await x.move(0, 0)
    assert landed["type"] == "move_ok" and not landed["duplicate"]
    assert x.reconnects == 1 and x.token == token and x.mark == "X"
    await x.until(lambda: len(x.room.moves) == 1)
    assert not x.my_turn and x.room.turn == "O"
    sent = [line.split()[2] for line in x.trail if line.startswith("> ")]
    assert sent == ["join", "join", "move"]
    snapshot = await server.snapshot(room_id)
    assert [(m["mark"], m["row"], m["col"]) for m in snapshot["moves"]] == [("X", 0, 0)]
    with pytest.raises(Refused) as refused:
        await x.move(1, 1)
    assert refused.value.code == "not_your_turn" and refused.value.trail


async def test_a_move_whose_answer_was_lost_lands_once(
    server: LiveServer, connect: Callable[..., Any], clients: list[AsyncRoomClient]
) -> None:
    room_id = await server.create_room()
    async with losing_relay(server, lambda message: message["type"] == "move") as relay:
        socket = f"ws://127.0.0.1:{relay.port}/ws/{room_id}"
        x = AsyncRoomClient(socket, Seat("player", "Ada"))
        clients.append(x)
        await x.join()
        o = await connect(server, room_id)
        await x.seen((await o.join())["version"])
        landed = await x.move(1, 2, move_id="the-one")
        sent = [m for m in relay.seen if m["type"] == "move"]
        await x.close()  # while the relay is there to answer the close
    assert landed["type"] == "move_ok" and landed["duplicate"] is True
    assert len(sent) == 2 and sent[0] == sent[1] and sent[0]["move_id"] == "the-one"
    assert x.reconnects == 1
    snapshot = await server.snapshot(room_id)
    assert [(m["mark"], m["row"], m["col"]) for m in snapshot["moves"]] == [("X", 1, 2)]


async def test_a_spectator_resumes_with_the_last_version_it_saw(
    server: LiveServer, connect: Callable[..., Any], clients: list[AsyncRoomClient]
) -> None:
    room_id = await server.create_room()
    watcher = AsyncRoomClient(server.ws_url(room_id, watch=True), Seat("spectator"))
    clients.append(watcher)
    first = await watcher.join()
    assert first["role"] == "spectator" and watcher.token is None
    x = await connect(server, room_id)
    seated = (await x.join())["version"]
    await watcher.seen(seated)
    assert watcher.seat.join_message()["last_version"] == seated > first["version"]
    assert watcher.line is not None
    watcher.line.abort()

    async def back() -> bool:
        return watcher.reconnects == 1

    await eventually(back, "the spectator back")
    joins = [line.split()[2:] for line in watcher.trail if line.startswith("> ")]
    assert joins == [["join"], ["join", str(seated)]]  # the resume names the last version seen
