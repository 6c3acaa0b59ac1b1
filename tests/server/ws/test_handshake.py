"""The handshake every WebSocket endpoint shares (server/ws/handshake.py): a foreign Origin
gets a 403, a full worker a 1013, and a socket let in holds one connection slot until it
ends; on the room's sockets, the bot socket and a tournament's alike."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from tests.support.live_server import LiveServer
from tests.support.waiting import eventually


async def socket_urls(live: LiveServer) -> list[str]:
    """A room's two sockets, the bot socket and a tournament's socket."""
    room_id = await live.create_room()
    async with httpx.AsyncClient(base_url=live.url) as http:
        made = (await http.post("/api/players", json={"name": "Ada"})).json()
        player = {"id": made["player_id"], "secret": made["secret"]}
        tournament = await http.post("/api/tournaments", json={"player": player})
    assert tournament.status_code == 201, tournament.text
    paths = [f"{room_id}", f"{room_id}/watch", "bot", f"t/{tournament.json()['tournament_id']}"]
    return [f"ws://127.0.0.1:{live.port}/ws/{path}" for path in paths]


async def test_a_foreign_origin_is_refused_before_the_accept(server: LiveServer) -> None:
    for url in await socket_urls(server):
        with pytest.raises(InvalidStatus) as refused:
            await connect(url, origin=Origin("http://evil.example"), proxy=None)
        assert refused.value.response.status_code == 403, url


async def test_each_socket_holds_a_slot_and_past_the_limit_is_closed_with_1013(
    make_server: Callable[..., LiveServer],
) -> None:
    live = make_server(max_connections=1)
    connections = live.app.state.tictactoe.connections
    urls = await socket_urls(live)
    for url in urls:
        async with connect(url, proxy=None):  # the worker's one slot, held
            await eventually(lambda: connections.open == 1, f"{url} took the slot")
            for other in urls:
                extra = await connect(other, proxy=None)
                with pytest.raises(ConnectionClosed):
                    await extra.recv()
                assert extra.close_code == 1013, other
                assert "try again later" in (extra.close_reason or ""), other
        await eventually(lambda: connections.open == 0, f"{url} gave its slot back")
