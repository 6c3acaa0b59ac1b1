"""One soak participant over as many WebSockets as faults make it need.

A ``Client`` is a seated player or a spectator of one room. A keeper task notices at once
when its connection drops and joins again on a random live server, with its seat token and
``last_version`` (docs/protocol.md, Resume), and times the way back. A player's ``move``
is retried through drops, reply timeouts and retryable errors with the **same** ``move_id``
and the version it was made against, until the server answers ``move_ok`` or refuses it for
good. A player sends a ``join_key`` with every join until it holds a token, so a seat-taking
``join`` whose ``welcome`` was lost gets its seat again. Clients never raise on a fault; they
raise ``Orphaned`` when a seat-taking ``join`` ends without its seat all the same (a server
bug: the seat went to nobody who holds its token) and ``Refused`` on an error no retry can
cure.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from bench.load.haproxy import SERVED_BY
from rooms.room import EventType

from .check import Ack, Cell
from .tally import Tally, Targets

__all__ = ["RETRYABLE", "Client", "Orphaned", "Refused"]

EVENT_TYPES = frozenset(kind.value for kind in EventType)
RETRYABLE = frozenset({"unavailable", "busy"})
"""Error codes that mean "not now": the same message goes again after a pause."""
JOIN_RETRYABLE = RETRYABLE | {"already_joined", "internal_error"}
"""A join's too: after a join that may have landed, the server closes with 1012 and the
client joins again on a new connection (docs/protocol.md, close codes)."""
REPLY_WAIT = 10.0
"""Seconds without an answer after which a connection counts as dead (closed, rejoined)."""
OPEN_TIMEOUT = 30.0
"""Seconds a WebSocket handshake may take. A server busy with a reconnect storm answers
handshakes late but answers them: a client that gave up sooner and connected again threw
away the work the server had already done for it and queued more, and past a few hundred
such clients the server did nothing else (a storm of 2,000 clients on a busy machine
resumed none of them with 5 s). A browser waits longer still."""
TRAIL = 16
"""Messages a client remembers (sent and received), for the report of a stuck game."""

Message = dict[str, Any]


def retry_pause(answer: Message, rng: random.Random) -> float:
    """Seconds to wait before sending a refused message again: the ``retry_after`` the
    server named (an overloaded worker's), spread over up to as much again so that the
    clients it refused together do not all come back together; else a short pause. A
    client that retried sooner would keep the worker as late as it was (a livelock)."""
    after = answer.get("retry_after")
    if isinstance(after, int | float) and not isinstance(after, bool) and after > 0:
        return float(after) * (1.0 + rng.random())
    return 0.1 + 0.2 * rng.random()


class Orphaned(Exception):
    """A player's seat-taking ``join`` got no ``welcome`` for its seat: the seat is lost."""


class Refused(Exception):
    """The server refused a message for good (its error code is the argument)."""

    def __init__(self, code: str, message: Message, trail: list[str]) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.trail = trail
        """What the client sent and received last, to tell how it came to this."""


class _Line:
    """One WebSocket and its reader; ``server`` is where it landed: the server named by a
    balancer's ``X-Served-By`` header, else the URL it was opened to."""

    def __init__(self, ws: ClientConnection, url: str, client: Client) -> None:
        self.ws, self.url, self.client = ws, url, client
        served_by = ws.response.headers.get(SERVED_BY) if ws.response is not None else None
        self.server: str = served_by or url
        self.opened = time.monotonic()
        """When its handshake completed."""
        self.replies: list[Message] = []
        self.closed = asyncio.Event()
        self.arrived = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                message = json.loads(text)
                if isinstance(message, dict):
                    self.client._note("<", self, message)
                    self.client._observe(message)
                    if message.get("type") not in EVENT_TYPES:
                        self.replies.append(message)
                self.arrived.set()
        except (ConnectionClosed, OSError):
            pass
        finally:
            self.client._note("x", self, {"type": "closed", "code": self.ws.close_code})
            self.client._closed(self)
            self.closed.set()
            self.arrived.set()

    async def send(self, message: Message) -> bool:
        self.client._note(">", self, message)
        try:
            await self.ws.send(json.dumps(message))
        except (ConnectionClosed, OSError):
            return False
        return True

    async def reply(self, match: Callable[[Message], bool]) -> Message | None:
        """The first reply that ``match``es; ``None`` when the line closed or stayed silent
        for ``REPLY_WAIT`` (then it is aborted, so the keeper rejoins)."""
        deadline = time.monotonic() + REPLY_WAIT
        while True:
            for index, message in enumerate(self.replies):
                if match(message):
                    return self.replies.pop(index)
            if self.closed.is_set():
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.abort()
                return None
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), remaining)

    def abort(self) -> None:
        self.ws.transport.abort()

    async def close(self) -> None:
        with contextlib.suppress(ConnectionClosed, OSError, TimeoutError):
            await asyncio.wait_for(self.ws.close(), 2)
        self.abort()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader


class Client:
    def __init__(
        self,
        room_id: str,
        role: str,
        name: str,
        targets: Targets,
        tally: Tally,
        *,
        acks: list[Ack] | None = None,
    ) -> None:
        self.room_id, self.role, self.name = room_id, role, name
        self.targets, self.tally = targets, tally
        self.token: str | None = None
        self.join_key = secrets.token_urlsafe(16) if role == "player" else None
        self._path = "/watch" if role == "spectator" else ""  # the spectators' path
        """Sent with every join until a token arrives: a lost welcome loses no seat."""
        self.mark: str | None = None
        self.version: int | None = None
        self.line: _Line | None = None
        self.joined = asyncio.Event()
        self.changed = asyncio.Event()
        self.acks: list[Ack] = [] if acks is None else acks
        """Every ``move_ok`` received, in order (a list the game's players may share)."""
        self.refused: dict[str, Cell] = {}
        self.reconnects = 0
        self.dropped_at: list[float] = []
        """``time.monotonic()`` of each drop noticed."""
        self.rejoined_at: list[float] = []
        """``time.monotonic()`` of each ``welcome`` after a drop."""
        self.seated: list[tuple[str, float]] = []
        """The server of each ``welcome`` and its ``time.monotonic()``, in order."""
        self.handshakes: list[float] = []
        """``time.monotonic()`` of each completed WebSocket handshake, in order."""
        self.welcomed_on: list[float] = []
        """For each ``welcome``, when the handshake of its connection completed."""
        self.failure: str | None = None
        """Why this client gave up rejoining (an error no retry cures), if it did."""
        self.trail: deque[str] = deque(maxlen=TRAIL)
        self._keeper: asyncio.Task[None] | None = None
        self._rng = random.Random()

    # -- what arrives ---------------------------------------------------------------------

    def _observe(self, message: Message) -> None:
        kind = message.get("type")
        version = message.get("version")
        if (kind in EVENT_TYPES or kind in ("welcome", "state")) and isinstance(version, int):
            self.version = max(self.version or 0, version)
        if kind == "error" and message.get("code") == "unavailable":
            self.tally.saw_unavailable()
        self.changed.set()

    def _note(self, way: str, line: _Line, message: Message) -> None:
        fields = ("type", "code", "version", "move_id", "ref", "mark", "last_version")
        brief = " ".join(str(message[key]) for key in fields if message.get(key) is not None)
        self.trail.append(f"{way} {line.server[-5:]}#{id(line) % 1000:03d} {brief}")

    def _closed(self, line: _Line) -> None:
        if line is self.line:
            self.joined.clear()  # before anyone waiting on the line's close runs

    # -- joining --------------------------------------------------------------------------

    async def _open(self, avoid: str | None) -> _Line:
        """A connection to a random live server (another one after a failure)."""
        pause = 0.05
        while True:
            url = self.targets.pick(avoid)
            if url is not None:
                try:
                    ws = await connect(
                        f"ws{url[4:]}/ws/{self.room_id}{self._path}",
                        open_timeout=OPEN_TIMEOUT,
                        close_timeout=1,
                        proxy=None,
                    )
                except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
                    self.trail.append(f"! {url[-5:]} connect: {type(exc).__name__} {exc}"[:160])
                    avoid = url
                else:
                    line = _Line(ws, url, self)
                    self.handshakes.append(line.opened)
                    return line
            await asyncio.sleep(pause * (0.5 + self._rng.random()))
            pause = min(pause * 2, 1.0)

    async def join(self, expect_mark: str | None = None) -> Message:
        """Join (or resume) on a live server; retried through drops and ``unavailable``.

        ``expect_mark``: this is a seat-taking join (no token yet) that must end with that
        seat; ending with another, or ``room_full``, means the first attempt took the seat
        and its ``welcome`` was lost (``Orphaned``).
        """
        avoid: str | None = None
        while True:
            line = await self._open(avoid)
            message: Message = {"type": "join", "as": self.role, "name": self.name}
            if self.token is not None:
                message["token"] = self.token
            elif self.join_key is not None:
                message["join_key"] = self.join_key
            if self.version is not None:
                message["last_version"] = self.version
            while await line.send(message):
                answer = await line.reply(lambda m: m.get("type") in ("welcome", "error"))
                if answer is None:
                    break
                if answer["type"] == "welcome":
                    if expect_mark is not None and answer.get("mark") != expect_mark:
                        await line.close()
                        raise Orphaned(f"{self.name} got seat {answer.get('mark')}")
                    self.line = line
                    self.seated.append((line.server, time.monotonic()))
                    self.welcomed_on.append(line.opened)
                    self.token = answer.get("token") or self.token
                    self.mark = answer.get("mark")
                    self.joined.set()
                    if self._keeper is None:
                        self._keeper = asyncio.create_task(self._keep())
                    return answer
                code = str(answer.get("code"))
                if code == "room_full" and expect_mark is not None:
                    await line.close()
                    raise Orphaned(f"{self.name}: room_full")
                if code not in JOIN_RETRYABLE:
                    await line.close()
                    raise Refused(code, answer, list(self.trail))
                await asyncio.sleep(retry_pause(answer, self._rng))
            avoid = line.url
            await line.close()

    async def _keep(self) -> None:
        """Rejoin as soon as the connection drops, and time the way back."""
        while True:
            line = self.line
            assert line is not None
            await line.closed.wait()
            kind = self.tally.dropped()
            dropped_at = time.monotonic()
            self.dropped_at.append(dropped_at)
            await line.close()
            try:
                await self.join()
            except Refused as exc:
                self.failure = (
                    f"{self.name} could not rejoin: {exc.code}; its last messages: "
                    + " | ".join(exc.trail)
                )
                return
            except Exception as exc:  # a keeper that dies must say why, never stall unseen
                self.failure = (
                    f"{self.name} stopped rejoining: {type(exc).__name__}: {exc}; its last "
                    "messages: " + " | ".join(self.trail)
                )
                raise
            self.reconnects += 1
            self.rejoined_at.append(time.monotonic())
            self.tally.reconnected(kind, time.monotonic() - dropped_at)

    @property
    def server(self) -> str | None:
        """The server of the connection this client is joined on now, if it is."""
        line = self.line
        return line.server if line is not None and self.joined.is_set() else None

    # -- acting ---------------------------------------------------------------------------

    async def seen(self, version: int) -> None:
        """Until this client knows ``version`` (the caller bounds the wait)."""
        while self.version is None or self.version < version:
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1.0)

    async def move(self, row: int, col: int, move_id: str) -> Message:
        """Play a move until ``move_ok``; the same ``move_id`` and version on every try."""
        assert self.mark is not None and self.version is not None
        cell: Cell = (self.mark, row, col)
        message = {
            "type": "move",
            "row": row,
            "col": col,
            "version": self.version,
            "move_id": move_id,
        }
        while True:
            await self.joined.wait()
            line = self.line
            assert line is not None
            if not await line.send(message):
                await line.closed.wait()
                continue
            reply = await line.reply(
                lambda m: (
                    (m.get("type") == "move_ok" and m.get("move_id") == move_id)
                    or (m.get("type") == "error" and m.get("ref") == move_id)
                )
            )
            if reply is None:
                await line.closed.wait()  # the keeper rejoins; then the same move again
                continue
            if reply["type"] == "move_ok":
                self.acks.append(
                    Ack(move_id, cell, int(reply["version"]), bool(reply.get("duplicate")))
                )
                return reply
            code = str(reply.get("code"))
            if code not in RETRYABLE:
                self.refused[move_id] = cell
                raise Refused(code, reply, list(self.trail))
            await asyncio.sleep(retry_pause(reply, self._rng))

    async def close(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._keeper
        if self.line is not None:
            await self.line.close()
