"""A real WebSocket client for a ``LiveServer`` (tests/support/live_server.py).

``Client`` wraps a ``websockets`` client connection, reads everything into ``log`` in
arrival order, and lets a test wait for the next message matching a type and fields:
every wait reads until the message arrives, bounded by ``WAIT``; none sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from rooms.room import EventType
from tests.support.live_server import LiveServer

__all__ = ["EVENT_TYPES", "WAIT", "Client", "table"]

EVENT_TYPES = {kind.value for kind in EventType}
NOT_REPLIES = EVENT_TYPES | {"chat", "guesses"}  # chat lines and splits come unasked
WAIT = 20.0  # upper bound for anything to arrive; a bound against hangs, never a measurement


class Client:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.log: list[dict[str, Any]] = []
        self.done = False
        self._cursor = 0
        self._taken: set[int] = set()
        self._arrived = asyncio.Event()
        self._reader = asyncio.create_task(self._read())
        self.welcome: dict[str, Any] | None = None
        self._acts = 0

    @classmethod
    async def open(
        cls, server: LiveServer, room_id: str, *, watch: bool = False, **kwargs: Any
    ) -> Client:
        """A connection to the room's socket (``watch``: its spectators' path)."""
        kwargs.setdefault("proxy", None)
        return cls(await connect(server.ws_url(room_id, watch=watch), **kwargs))

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self.log.append(json.loads(text))
                self._arrived.set()
        except ConnectionClosed:
            pass
        finally:
            self.done = True
            self._arrived.set()

    @property
    def close_code(self) -> int | None:
        return self.ws.close_code

    @property
    def events(self) -> list[dict[str, Any]]:
        return [m for m in self.log if m["type"] in EVENT_TYPES]

    @property
    def version(self) -> int:
        """The highest version this client has seen."""
        versions = [m["version"] for m in self.log if isinstance(m.get("version"), int)]
        return max(versions, default=0)

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def _take(self, match: Any) -> dict[str, Any] | None:
        for index in range(self._cursor, len(self.log)):
            if index not in self._taken and match(self.log[index]):
                self._taken.add(index)
                while self._cursor in self._taken:
                    self._cursor += 1
                return self.log[index]
        return None

    async def _wait(self, match: Any, what: str) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while True:
            found = self._take(match)
            if found is not None:
                return found
            if self.done:
                raise AssertionError(
                    f"closed ({self.close_code}) before {what}; got {self.log[-3:]}"
                )
            self._arrived.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no {what} arrived; last: {self.log[-3:]}")
            try:
                await asyncio.wait_for(self._arrived.wait(), remaining)
            except TimeoutError:
                continue

    async def seen(self, version: int) -> None:
        """Wait (taking nothing) until this client has received ``version``."""
        deadline = time.monotonic() + WAIT
        while self.version < version:
            if self.done or time.monotonic() > deadline:
                raise AssertionError(f"version {version} never arrived (at {self.version})")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), max(deadline - time.monotonic(), 0))

    async def until(self, type: str | None = None, **fields: Any) -> dict[str, Any]:
        """The first message not yet taken with this type and these fields (arrival order).

        Messages passed over stay available to later calls."""
        return await self._wait(
            lambda m: (
                (type is None or m["type"] == type)
                and all(m.get(k) == v for k, v in fields.items())
            ),
            f"{type} {fields}",
        )

    async def reply(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` and return the first reply not yet taken (anything but an event)."""
        await self.send(message)
        return await self._wait(lambda m: m["type"] not in NOT_REPLIES, f"a reply to {message}")

    async def join(self, role: str = "player", **fields: Any) -> dict[str, Any]:
        answer = await self.reply({"type": "join", "as": role, **fields})
        if answer["type"] == "welcome":
            self.welcome = answer
        return answer

    async def move(
        self,
        row: int | None,
        col: int,
        *,
        layer: int | None = None,
        version: int | None = None,
        move_id: str | None = None,
    ) -> dict[str, Any]:
        """Send a move against the latest version seen; returns move_ok or the error."""
        message: dict[str, Any] = {
            "type": "move",
            "col": col,
            "version": self.version if version is None else version,
            "move_id": move_id or f"m{len(self.log)}-{row}-{col}",
        }
        if row is not None:
            message["row"] = row
        if layer is not None:
            message["layer"] = layer
        return await self.reply(message)

    async def act(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a lifecycle command (with an id) and return its ``ack`` or ``error``."""
        self._acts += 1
        ref = f"{kind}-{self._acts}"
        answer = await self.reply({"type": kind, "id": ref, **fields})
        assert answer["type"] in {"ack", "error"} and answer["ref"] == ref, answer
        return answer

    async def wait_closed(self) -> int | None:
        await asyncio.wait_for(self._reader, WAIT)
        return self.close_code

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.wait_for(self._reader, WAIT)


async def table(
    server: LiveServer, connect: Any, rules: dict[str, Any] | None = None, **options: Any
) -> tuple[str, Client, Client, Client]:
    """A new room with X, O and a spectator joined (all welcomed): (room_id, x, o, watcher)."""
    room_id = await server.create_room(rules, **options)
    x, o, watcher = [await connect(server, room_id) for _ in range(3)]
    assert (await x.join(name="Ada"))["type"] == "welcome"
    assert (await o.join(name="Grace"))["type"] == "welcome"
    assert (await watcher.join("spectator", name="Bob"))["type"] == "welcome"
    await x.seen(watcher.version)
    await o.seen(watcher.version)
    return room_id, x, o, watcher
