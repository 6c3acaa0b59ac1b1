"""WebSocket clients for the chaos tests that check what they see, and games played by them.

A ``Peer`` is one participant, a seated player or a spectator, over as many connections as
its server's fate requires: when a connection dies it joins again on another server with
its seat token and ``last_version``, and retries an unanswered move with the same
``move_id`` (docs/protocol.md, Resume). As messages arrive it checks the protocol's
promises and notes every breach in ``problems``: each event is exactly the next version, a
``state`` never goes back, a resumed ``welcome`` lists exactly the missed events. Every
wait is bounded (``WAIT``) and fails with what was seen; none is a measurement.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from rooms.room import EventType
from tests.support.server_process import WAIT, Endpoint

__all__ = ["Chooser", "Dropped", "Peer", "RETRYABLE", "chooser"]

EVENT_TYPES = frozenset(kind.value for kind in EventType)
RETRYABLE = frozenset({"unavailable", "busy"})
"""Error codes that mean "not now": the same message is sent again a moment later."""

Chooser = Callable[[Endpoint | None], Endpoint]
Message = dict[str, Any]


def chooser(servers: Sequence[Endpoint]) -> Chooser:
    """Round robin over the live servers, avoiding the one that just failed if possible."""
    turn = itertools.count()

    def choose(avoid: Endpoint | None) -> Endpoint:
        live = [s for s in servers if s.alive and s is not avoid] or [s for s in servers if s.alive]
        assert live, "no server left alive"
        return live[next(turn) % len(live)]

    return choose


class Dropped(Exception):
    """The connection closed before the answer came."""


class _Line:
    """One WebSocket: a reader task hands every message to the peer and keeps replies."""

    def __init__(self, ws: ClientConnection, server: Endpoint, peer: Peer) -> None:
        self.ws, self.server, self.peer = ws, server, peer
        self.last_version: int | None = None  # what this connection's join carried
        self.replies: list[Message] = []
        self.closed = False
        self.arrived = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                message = json.loads(text)
                self.peer._observe(self, message)
                if message["type"] not in EVENT_TYPES:
                    self.replies.append(message)
                self.arrived.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            self.arrived.set()

    async def send(self, message: Message) -> None:
        try:
            await self.ws.send(json.dumps(message))
        except ConnectionClosed:
            raise Dropped from None

    async def reply(self, match: Callable[[Message], bool], what: str) -> Message:
        deadline = time.monotonic() + WAIT
        while True:
            for index, message in enumerate(self.replies):
                if match(message):
                    return self.replies.pop(index)
            if self.closed:
                raise Dropped
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"{self.peer.name}: no {what}; replies {self.replies[-3:]}")
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), remaining)

    async def close(self) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            await asyncio.wait_for(self.ws.close(), 5)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._reader), 5)


class Peer:
    def __init__(
        self, name: str, role: str, room_id: str, choose: Chooser, *, watch_path: bool = False
    ) -> None:
        self.name, self.role, self.room_id = name, role, room_id
        self.path = "/watch" if watch_path else ""  # a spectator on the spectators' path
        self._choose = choose
        self.token: str | None = None
        self.mark: str | None = None
        self.version: int | None = None
        """The highest version this peer knows (welcome, events, state)."""
        self.line: _Line | None = None
        self.events: dict[int, Message] = {}  # every event seen, live or as missed
        self.problems: list[str] = []
        self.acked: dict[str, Message] = {}  # move_id -> its move_ok
        self.errors: list[Message] = []
        self.reconnects = 0
        self.joined_on: list[Endpoint] = []  # the server of each welcome, in order
        self.served_by: list[str | None] = []  # a balancer's X-Served-By of each welcome

    # -- what arrives ---------------------------------------------------------------------

    def _record(self, event: Message) -> None:
        known = self.events.setdefault(event["version"], event)
        if known != event:
            self.problems.append(f"{self.name}: two events at {event['version']}")

    def _observe(self, line: _Line, message: Message) -> None:
        if line is not self.line:
            self.problems.append(f"{self.name}: a message on an old connection: {message}")
            return
        kind = message["type"]
        version: Any = message.get("version")  # an int wherever a branch below reads it
        if kind == "welcome":
            missed, sent = message["missed"], line.last_version
            if sent is not None and missed is None:
                self.problems.append(f"{self.name}: resumed at {sent}, nothing listed missed")
            for event in missed or []:
                self._record(event)
            if missed is not None and [e["version"] for e in missed] != list(
                range((sent or 0) + 1, message["version"] + 1)
            ):
                self.problems.append(f"{self.name}: missed {missed} after {sent}")
            self.version = message["version"]
            self.token = message["token"] or self.token
            self.mark = message["mark"]
        elif kind in EVENT_TYPES:
            if self.version is None or version != self.version + 1:
                self.problems.append(f"{self.name}: event {version} after {self.version}")
            self._record(message)
            self.version = max(self.version or 0, version)
        elif kind == "state":
            if self.version is not None and version < self.version:
                self.problems.append(f"{self.name}: state {version} after {self.version}")
            self.version = max(self.version or 0, version)
        elif kind == "error":
            self.errors.append(message)

    # -- joining --------------------------------------------------------------------------

    async def join(self, server: Endpoint, *, since: int | None = None) -> Message:
        """Join on ``server`` (another when it is gone), resuming what this peer had."""
        last = self.version if since is None else since
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                ws = await connect(
                    server.ws(self.room_id) + self.path,
                    proxy=None,
                    open_timeout=10,
                    close_timeout=2,
                )
            except (OSError, InvalidHandshake, TimeoutError):
                server = self._choose(server)
                await asyncio.sleep(0.05)  # a client's pause before it connects again
                continue
            self.line = line = _Line(ws, server, self)
            line.last_version = last
            message: Message = {"type": "join", "as": self.role, "name": self.name}
            if self.token is not None:
                message["token"] = self.token
            if last is not None:
                message["last_version"] = last
            try:
                while time.monotonic() < deadline:
                    await line.send(message)
                    answer = await line.reply(
                        lambda m: m["type"] in ("welcome", "error"), "welcome"
                    )
                    if answer["type"] == "welcome":
                        self.joined_on.append(server)
                        assert ws.response is not None
                        self.served_by.append(ws.response.headers.get("X-Served-By"))
                        return answer
                    if answer["code"] not in RETRYABLE:
                        raise AssertionError(f"{self.name}: join refused: {answer}")
                    await asyncio.sleep(0.1)  # a client's pause before it asks again
            except Dropped:
                server = self._choose(server)
        raise AssertionError(f"{self.name}: could not join {self.room_id}")

    async def reconnect(self) -> None:
        assert self.line is not None
        old = self.line
        await old.close()
        self.reconnects += 1
        await self.join(self._choose(old.server))

    async def close(self) -> None:
        if self.line is not None:
            await self.line.close()

    # -- acting ---------------------------------------------------------------------------

    async def seen(self, version: int) -> None:
        """Wait until this peer knows ``version`` (joining again if its line died)."""
        deadline = time.monotonic() + WAIT
        while self.version is None or self.version < version:
            assert self.line is not None
            if self.line.closed:
                await self.reconnect()
                continue
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: never saw {version} (at {self.version})")
            self.line.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.line.arrived.wait(), 0.5)

    async def move(
        self, row: int, col: int, move_id: str, *, version: int | None = None, retry: bool = True
    ) -> Message:
        """Play a move; a retryable error or a dropped connection sends it again, with the
        same ``move_id`` and the version it was made against. Returns move_ok or a final
        error."""
        against = self.version if version is None else version
        message = {"type": "move", "row": row, "col": col, "version": against, "move_id": move_id}
        deadline = time.monotonic() + WAIT
        for _ in range(10_000):
            assert self.line is not None
            try:
                await self.line.send(message)
                reply = await self.line.reply(
                    lambda m: (
                        (m["type"] == "move_ok" and m["move_id"] == move_id)
                        or (m["type"] == "error" and m.get("ref") == move_id)
                    ),
                    f"answer to {move_id}",
                )
            except Dropped:
                await self.reconnect()
                continue
            if reply["type"] == "move_ok":
                self.acked[move_id] = reply
                return reply
            if not (retry and reply["code"] in RETRYABLE and time.monotonic() < deadline):
                return reply
            await asyncio.sleep(0.1)  # a client's pause before it sends the move again
        raise AssertionError(f"{self.name}: gave up on {move_id}")
