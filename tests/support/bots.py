"""Bot accounts for tests (docs/protocol.md, "Bots"): make one over HTTP, open its socket
(``/ws/bot``) as a ``Client`` (tests/support/ws_client.py), challenge it."""

from __future__ import annotations

from typing import Any

import httpx
from websockets.asyncio.client import connect

from tests.support.live_server import LiveServer
from tests.support.ws_client import Client

__all__ = ["bot_socket", "challenge", "make_bot", "play_as_bot"]


async def make_bot(server: LiveServer, name: str = "Robo") -> dict[str, Any]:
    """A new bot account: ``player_id``, ``name``, ``secret``, ``token``..."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        made = await http.post("/api/bots", json={"name": name})
    assert made.status_code == 201, made.text
    bot: dict[str, Any] = made.json()
    return bot


async def bot_socket(server: LiveServer, token: str | None = None) -> Client:
    """The bot socket, greeted with ``token`` (its ``bot_welcome`` taken) when one is given."""
    client = Client(await connect(f"ws://127.0.0.1:{server.port}/ws/bot", proxy=None))
    if token is not None:
        welcome = await client.reply({"type": "hello", "token": token})
        assert welcome["type"] == "bot_welcome", welcome
    return client


async def challenge(
    server: LiveServer, bot_id: str, body: dict[str, Any] | None = None, **headers: str
) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return await http.post(f"/api/bots/{bot_id}/challenge", json=body or {}, headers=headers)


async def play_as_bot(server: LiveServer, room_id: str, token: str) -> Client:
    """The bot's connection to a room, joined with its token (its welcome taken)."""
    client = await Client.open(server, room_id)
    welcome = await client.join(bot_token=token)
    assert welcome["type"] == "welcome", welcome
    return client
