"""Fixtures for the tests of the server and of its clients (registered by tests/conftest.py):
a shared live server, servers with custom settings, and clients closed after each test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from server import Settings
from tests.support.live_server import LiveServer
from tests.support.ws_client import Client


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the tests that do not need special settings (rooms are independent)."""
    empty = tmp_path_factory.mktemp("no-static")
    live = LiveServer(Settings(static_dir=empty, rate=1000.0, burst=1000)).start()
    yield live
    live.stop()


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """Start a server with some settings changed; stopped after the test."""
    started: list[LiveServer] = []

    def make(**changes: Any) -> LiveServer:
        changes.setdefault("static_dir", tmp_path / "no-static")
        live = LiveServer(Settings(**changes)).start()
        started.append(live)
        return live

    yield make
    for live in started:
        live.stop()


@pytest.fixture
async def connect() -> AsyncIterator[Callable[..., Any]]:
    """``await connect(server, room_id, **websockets_kwargs)`` -> Client, closed afterwards."""
    clients: list[Client] = []

    async def open_client(server: LiveServer, room_id: str, **kwargs: Any) -> Client:
        client = await Client.open(server, room_id, **kwargs)
        clients.append(client)
        return client

    yield open_client
    for client in clients:
        if not client.done:
            await client.close()
