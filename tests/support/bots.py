"""Bot accounts for tests (docs/protocol.md, "Bots"): make one over HTTP, open its socket
(``/ws/bot``) as a ``Client`` (tests/support/ws_client.py), challenge it."""

from __future__ import annotations

from typing import Any, Protocol

import httpx
from websockets.asyncio.client import connect

from tests.support.ws_client import Client

__all__ = ["Served", "accept", "bot_socket", "challenge", "make_bot", "open_room", "play_as_bot"]


class Served(Protocol):
    """A server on a loopback port: a ``LiveServer`` or a ``ServerProcess``."""

    port: int

    @property
    def url(self) -> str: ...


async def open_room(server: Served, room_id: str) -> Client:
    """A connection to the room's socket (closed by the caller)."""
    return Client(await connect(f"ws://127.0.0.1:{server.port}/ws/{room_id}", proxy=None))


async def make_bot(server: Served, name: str = "Robo") -> dict[str, Any]:
    """A new bot account: ``player_id``, ``name``, ``secret``, ``token``..."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        made = await http.post("/api/bots", json={"name": name})
    assert made.status_code == 201, made.text
    bot: dict[str, Any] = made.json()
    return bot


async def bot_socket(server: Served, token: str | None = None) -> Client:
    """The bot socket, greeted with ``token`` (its ``bot_welcome`` taken) when one is given."""
    client = Client(await connect(f"ws://127.0.0.1:{server.port}/ws/bot", proxy=None))
    if token is not None:
        welcome = await client.reply({"type": "hello", "token": token})
        assert welcome["type"] == "bot_welcome", welcome
    return client


async def challenge(
    server: Served, bot_id: str, body: dict[str, Any] | None = None, **headers: str
) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return await http.post(f"/api/bots/{bot_id}/challenge", json=body or {}, headers=headers)


async def play_as_bot(server: Served, room_id: str, token: str) -> Client:
    """The bot's connection to a room, joined with its token (its welcome taken)."""
    client = await open_room(server, room_id)
    welcome = await client.join(bot_token=token)
    assert welcome["type"] == "welcome", welcome
    return client


async def accept(control: Client, room_id: str) -> dict[str, Any]:
    """Wait for the challenge of ``room_id`` on the bot socket, accept it: its ``seat``."""
    told = await control.until("challenge", room_id=room_id)
    answer = await control.reply({"type": "accept", "challenge_id": told["challenge_id"]})
    assert answer["type"] == "ack", answer
    return await control.until("seat", room_id=room_id)
