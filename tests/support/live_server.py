"""A real server in the test process: the app under a real uvicorn, in a thread.

``LiveServer`` runs ``create_app(settings)`` under uvicorn (the same options ``tictactoe
serve`` uses) on a free loopback port in a background thread with its own event loop, so
a test's own loop talks to it over real sockets. ``start`` waits until uvicorn says it
started; ``stop`` asks it to exit and joins the thread. For a server in a process of its
own (killed, restarted, several workers), see tests/support/server_process.py.
"""

from __future__ import annotations

import socket
import threading
from typing import Any

import httpx
import uvicorn

from server import Settings, create_app
from server.launch import uvicorn_options
from tests.support.waiting import eventually_sync

__all__ = ["LiveServer"]

START_WAIT = 30.0


class LiveServer:
    def __init__(self, settings: Settings, *, admission: bool = False) -> None:
        if not admission:
            # In this process the server's loop shares the GIL with the test's own client
            # loop and other test servers: its lag measures the test process, not the server,
            # and would refuse a test's joins on a busy machine. Tests of admission ask for it.
            settings = settings.with_changes(admission_lag=0.0)
        self.settings = settings
        self.app = create_app(settings)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port: int = self.sock.getsockname()[1]
        options = uvicorn_options(settings)
        del options["host"], options["port"]
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", **options))
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, room_id: str, *, watch: bool = False) -> str:
        """The room's socket, or with ``watch`` its spectators' path."""
        return f"ws://127.0.0.1:{self.port}/ws/{room_id}" + ("/watch" if watch else "")

    def start(self) -> LiveServer:
        self.thread.start()

        def started() -> bool:
            if not self.thread.is_alive():
                raise RuntimeError("the test server's thread ended before it started")
            return bool(self.server.started)

        eventually_sync(started, "the test server started", timeout=START_WAIT, interval=0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()

    async def create_room(
        self, rules: dict[str, Any] | None = None, *, public: bool = False, **options: Any
    ) -> str:
        """A new room; ``options`` are the other fields of the body (bot, time_control)."""
        body = {"rules": rules or {}, "public": public, **options}
        async with httpx.AsyncClient(base_url=self.url) as http:
            response = await http.post("/api/rooms", json=body)
        assert response.status_code == 201, response.text
        room_id: str = response.json()["room_id"]
        return room_id

    async def snapshot(self, room_id: str) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=self.url) as http:
            response = await http.get(f"/api/rooms/{room_id}")
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    async def stored(self, room_id: str) -> dict[str, Any]:
        """The snapshot without ``now`` (the time it was taken): equal while nothing changed."""
        snapshot = await self.snapshot(room_id)
        del snapshot["now"]
        return snapshot
