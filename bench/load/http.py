"""A tiny HTTP/1.1 client with a few keep-alive connections, for ``POST /api/rooms``.

Every bench game starts with a room created over HTTP. A fresh TCP connection per room
would make the load generator measure connection setup instead of the server, and no HTTP
client is a dependency of the project, so this keeps ``size`` keep-alive connections and
speaks just enough HTTP/1.1 for JSON requests and ``Content-Length`` responses (what
uvicorn sends for Starlette's JSONResponse). Loopback only; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit

__all__ = ["HttpError", "HttpPool"]


class HttpError(Exception):
    """The server answered with an unexpected status, or not in time, or not at all."""


_Conn = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class HttpPool:
    def __init__(self, base_url: str, *, size: int = 4, timeout: float = 10.0) -> None:
        parts = urlsplit(base_url)
        if parts.scheme != "http" or parts.hostname is None:
            raise ValueError(f"expected http://host:port, got {base_url!r}")
        self.host = parts.hostname
        self.port = parts.port or 80
        self.timeout = timeout
        self._idle: asyncio.Queue[_Conn | None] = asyncio.Queue()
        for _ in range(size):
            self._idle.put_nowait(None)  # a slot: connected on first use

    async def request(
        self, method: str, path: str, body: dict[str, Any] | None = None
    ) -> tuple[int, Any]:
        """``(status, decoded JSON body)``; one retry on a fresh connection when the kept one
        was closed by the server (its keep-alive timeout)."""
        conn = await self._idle.get()
        try:
            for attempt in (1, 2):
                if conn is None:
                    conn = await asyncio.wait_for(
                        asyncio.open_connection(self.host, self.port), self.timeout
                    )
                try:
                    return await asyncio.wait_for(
                        self._exchange(conn, method, path, body), self.timeout
                    )
                except (ConnectionError, asyncio.IncompleteReadError) as exc:
                    conn[1].close()
                    conn = None
                    if attempt == 2:
                        raise HttpError(f"{method} {path}: {exc!r}") from exc
                except TimeoutError as exc:
                    conn[1].close()
                    conn = None
                    raise HttpError(f"{method} {path}: no answer in {self.timeout} s") from exc
            raise AssertionError("unreachable")
        finally:
            self._idle.put_nowait(conn)

    async def _exchange(
        self, conn: _Conn, method: str, path: str, body: dict[str, Any] | None
    ) -> tuple[int, Any]:
        reader, writer = conn
        payload = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        )
        writer.write(head.encode() + payload)
        await writer.drain()
        lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        data = await reader.readexactly(length)
        return status, json.loads(data) if data else None

    async def create_room(self, rules: dict[str, Any]) -> str:
        status, data = await self.request("POST", "/api/rooms", {"rules": rules})
        if status != 201 or not isinstance(data, dict) or "room_id" not in data:
            raise HttpError(f"POST /api/rooms answered {status}: {data!r:.200}")
        return str(data["room_id"])

    async def close(self) -> None:
        while not self._idle.empty():
            conn = self._idle.get_nowait()
            if conn is not None:
                conn[1].close()
