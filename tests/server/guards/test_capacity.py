"""``--max-connections`` (server/guards/capacity.py): the count, the file limit, and a real
``tictactoe serve`` refusing the socket past its limit with 1013 while /readyz says full."""

from __future__ import annotations

import resource
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server import Settings
from server.errors import SettingsError
from server.guards.capacity import FD_MARGIN, ConnectionLimit, fit_file_limit
from tests.support.server_process import Fleet, create_room
from tests.support.waiting import eventually


def test_the_limit_counts_and_is_near_full_from_ninety_percent() -> None:
    limit = ConnectionLimit(10)
    assert all(limit.take() for _ in range(8)) and not limit.near_full
    assert limit.take() and limit.near_full  # 9 of 10
    assert limit.take() and not limit.take()  # 10 of 10, then refused
    assert limit.open == 10
    limit.release()
    limit.release()
    assert limit.open == 8 and not limit.near_full and limit.take()
    with pytest.raises(ValueError, match="1 or more"):
        ConnectionLimit(0)


def test_the_setting_reads_its_variable_and_refuses_nonsense() -> None:
    assert Settings().max_connections == 10_000
    assert Settings.from_env({"TICTACTOE_MAX_CONNECTIONS": "50"}).max_connections == 50
    with pytest.raises(SettingsError, match="max_connections"):
        Settings.from_env({"TICTACTOE_MAX_CONNECTIONS": "0"})
    with pytest.raises(SettingsError, match="TICTACTOE_MAX_CONNECTIONS"):
        Settings.from_env({"TICTACTOE_MAX_CONNECTIONS": "lots"})


def test_the_file_limit_is_raised_up_to_the_hard_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process's real limits are left alone: getrlimit and setrlimit are stand-ins."""
    limits = {"soft": 1024, "hard": 4096}

    def getrlimit(which: int) -> tuple[int, int]:
        return limits["soft"], limits["hard"]

    def setrlimit(which: int, pair: tuple[int, int]) -> None:
        limits["soft"], limits["hard"] = pair

    monkeypatch.setattr(resource, "getrlimit", getrlimit)
    monkeypatch.setattr(resource, "setrlimit", setrlimit)
    assert fit_file_limit(1000) is None and limits["soft"] == 1000 + FD_MARGIN
    warning = fit_file_limit(10_000)
    assert limits["soft"] == 4096
    assert warning is not None and "--max-connections 10000" in warning and "4096" in warning


async def test_past_the_limit_a_socket_is_closed_with_1013_and_readyz_is_503(
    fleet: Fleet,
) -> None:
    (serve,) = fleet.start(None, 1, "--max-connections", "3")
    room_id = await create_room(serve, {}, public=False)
    held: list[Any] = []
    try:
        for _ in range(2):
            held.append(await connect(serve.ws(room_id), proxy=None))
        assert (await serve.readyz())[0] == 200  # 2 of 3: below 90 %
        held.append(await connect(serve.ws(room_id), proxy=None))  # counted before accept
        status, body = await serve.readyz()
        assert (status, body["status"], body["code"]) == (503, "full", "unavailable")
        assert "3 of 3 connections" in body["message"]

        extra = await connect(serve.ws(room_id), proxy=None)
        with pytest.raises(ConnectionClosed):
            await extra.recv()
        assert extra.close_code == 1013 and "try again later" in (extra.close_reason or "")

        await held.pop().close()

        async def ready() -> bool:
            return (await serve.readyz())[0] == 200

        await eventually(ready, "/readyz ready again once a connection closed")
        again = await connect(serve.ws(room_id), proxy=None)  # a place is free again
        held.append(again)
        await again.send('{"type": "join", "as": "spectator"}')
        assert '"welcome"' in await again.recv()
    finally:
        for ws in held:
            await ws.close()
    async with httpx.AsyncClient() as http:
        response = await http.get(f"{serve.url}/healthz")
    assert "server" not in response.headers  # uvicorn's server_header is off
    assert response.headers["x-content-type-options"] == "nosniff"
