"""A room over the protocol, in asyncio: join, resume at once after a drop, moves that land once.

``AsyncRoomClient`` keeps a seat through any number of connections (client.lines.Line), and
its ``room`` (a client.mirror.RoomMirror) follows the game. A keeper task notices a drop at
once and joins again (with the seat token and ``last_version``; docs/protocol.md, "Resume"),
on the URL ``urls`` picks (another one after a failure: a cluster's live servers); ``move``
and ``request`` are retried through drops, reply timeouts and ``busy``/``unavailable`` with
the very same message, until the server answers or refuses for good (``Refused``). A player
sends a ``join_key`` with every join until it holds a token, so a seat-taking join whose
welcome was lost gets its seat again; ``join`` raises ``SeatLost`` when it ends with another
seat or ``room_full`` (the server gave the seat to nobody who holds its token). Subclasses
hear every message through hooks (the soak's tally, bench.soak.client). A load generator's
hot loop runs on ``open_joined``'s bare socket instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake, InvalidURI

from .errors import ClientError, Refused
from .lines import Line, open_joined
from .mirror import RoomMirror
from .wire import (
    JOIN_AGAIN,
    REPLY_TYPES,
    RETRYABLE,
    Message,
    Seat,
    is_answer_to,
    move_message,
    new_move_id,
    retry_pause,
)

__all__ = ["AsyncRoomClient", "Line", "SeatLost", "open_joined"]

REPLY_WAIT = 10.0
"""Seconds without an answer after which a connection counts as dead (closed, rejoined)."""
OPEN_TIMEOUT = 30.0
"""Seconds a WebSocket handshake may take. A server busy with a reconnect storm answers
handshakes late but answers them: a client that gave up sooner and connected again threw
away the work the server had already done for it and queued more (a storm of 2,000 clients
on a busy machine resumed none of them with 5 s). A browser waits longer still."""
TRAIL = 16
"""Messages a client remembers (sent and received), for the report of a stuck game."""


class SeatLost(ClientError):
    """A seat-taking ``join`` got no ``welcome`` for its seat: the seat is lost."""


URLPicker = Callable[[str | None], str | None]
"""Given the URL to avoid (the last that failed, or None), a room socket URL to try, or None
when none is live now (the client waits and asks again)."""


class AsyncRoomClient:
    """A seat (or a spectator's view) kept through drops; see the module's docstring.

    ``urls``: the room's socket URL, or a ``URLPicker``. ``seat``: what to join as (a
    client.wire.Seat: role, name, token or join key). ``connect_options`` go to
    ``websockets``' ``connect``."""

    def __init__(
        self,
        urls: str | URLPicker,
        seat: Seat,
        *,
        reply_wait: float = REPLY_WAIT,
        open_timeout: float = OPEN_TIMEOUT,
        connect_options: dict[str, Any] | None = None,
    ) -> None:
        self.pick: URLPicker = (lambda avoid: urls) if isinstance(urls, str) else urls
        self.reply_types = REPLY_TYPES
        self.seat = seat
        self.reply_wait = reply_wait
        self.connect_options: dict[str, Any] = {
            "open_timeout": open_timeout,
            "close_timeout": 1,
            "proxy": None,
            **(connect_options or {}),
        }
        self.line: Line | None = None
        self.joined = asyncio.Event()
        """Set while a connection is joined (cleared as soon as it drops)."""
        self.changed = asyncio.Event()
        """Set whenever a message arrives (cleared by whoever waits on it)."""
        self.reconnects = 0
        self.failure: str | None = None
        """Why this client gave up rejoining (an error no retry cures), if it did."""
        self.trail: deque[str] = deque(maxlen=TRAIL)
        """What the client sent and received last, to tell how it came to a refusal."""
        self.room = RoomMirror()
        """The room as the server reports it (rules, moves, players, status, turn...)."""
        self._keeper: asyncio.Task[None] | None = None
        self._rng = random.Random()

    @property
    def mark(self) -> str | None:
        """This seat's mark (it changes with a rematch's ``new_game``); None: watching."""
        return self.room.mark if self.room.mark is not None else self.seat.mark

    @property
    def my_turn(self) -> bool:
        """The game is being played and it is this seat's move."""
        room = self.room
        return room.status == "playing" and room.mark is not None and room.turn == room.mark

    @property
    def token(self) -> str | None:
        return self.seat.token

    @property
    def version(self) -> int | None:
        """The highest room version received (None before the first welcome)."""
        return self.seat.version

    @property
    def server(self) -> str | None:
        """The server of the connection this client is joined on now, if it is."""
        line = self.line
        return line.server if line is not None and self.joined.is_set() else None

    # -- hooks for subclasses -------------------------------------------------------------

    def observe(self, message: Message) -> None:
        """Every message received, in order (override to hear them; call this one)."""
        self.seat.saw(message)
        self.room.take(message)
        self.changed.set()

    def server_of(self, ws: ClientConnection, url: str) -> str:
        """The name of the server a new connection landed on (override: a balancer's
        header)."""
        return url

    def connected(self, line: Line) -> None:
        """A handshake completed (a new connection, before its join)."""

    def welcomed(self, line: Line, welcome: Message) -> None:
        """A join was welcomed on ``line``."""

    def dropped(self) -> object:
        """The joined connection dropped; what is answered is handed to ``rejoined``."""
        return None

    def rejoined(self, drop: object, seconds: float) -> None:
        """Joined again ``seconds`` after the drop ``dropped`` answered ``drop`` for."""

    def noted(self, way: str, line: Line, message: Message) -> None:
        """Keep a message sent (``>``), received (``<``) or a close (``x``) in ``trail``."""
        fields = ("type", "code", "version", "move_id", "ref", "mark", "last_version")
        brief = " ".join(str(message[key]) for key in fields if message.get(key) is not None)
        self.trail.append(f"{self.stamp()}{way} {line.server[-5:]}#{id(line) % 1000:03d} {brief}")

    def stamp(self) -> str:
        """What starts each ``trail`` entry (override: a time, to line it up with a log)."""
        return ""

    def line_closed(self, line: Line) -> None:
        if line is self.line:
            self.joined.clear()  # before anyone waiting on the line's close runs

    def _refused(self, answer: Message) -> Refused:
        refused = Refused(str(answer.get("code")), str(answer.get("message", "")), answer)
        refused.trail = list(self.trail)
        return refused

    # -- joining --------------------------------------------------------------------------

    async def _open(self, avoid: str | None) -> Line:
        """A connection to the URL picked (another one after a failure), tried until one
        opens, the pause doubling from 50 ms to 1 s."""
        pause = 0.05
        while True:
            url = self.pick(avoid)
            if url is not None:
                try:
                    ws = await connect(url, **self.connect_options)
                except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
                    failed = f"! {url[-5:]} connect: {type(exc).__name__} {exc}"[:160]
                    self.trail.append(self.stamp() + failed)
                    avoid = url
                else:
                    line = Line(ws, url, self)
                    self.connected(line)
                    return line
            await asyncio.sleep(pause * (0.5 + self._rng.random()))
            pause = min(pause * 2, 1.0)

    async def join(self, expect_mark: str | None = None) -> Message:
        """Join (or resume); retried through drops and ``JOIN_AGAIN`` refusals; the
        welcome. Refused when the server refuses for good.

        ``expect_mark``: this is a seat-taking join that must end with that seat; another
        seat, or ``room_full``, means an earlier try took the seat and its welcome was lost
        (``SeatLost``)."""
        avoid: str | None = None
        while True:
            line = await self._open(avoid)
            message = self.seat.join_message()
            while await line.send(message):
                answer = await line.reply(lambda m: m.get("type") in ("welcome", "error"))
                if answer is None:
                    break
                if answer["type"] == "welcome":
                    if expect_mark is not None and answer.get("mark") != expect_mark:
                        await line.close()
                        raise SeatLost(f"{self.seat.name} got seat {answer.get('mark')}")
                    self.line = line
                    self.seat.welcomed(answer)
                    self.room.mark = self.seat.mark
                    self.welcomed(line, answer)
                    self.joined.set()
                    if self._keeper is None:
                        self._keeper = asyncio.create_task(self._keep())
                    return answer
                code = str(answer.get("code"))
                if code == "room_full" and expect_mark is not None:
                    await line.close()
                    raise SeatLost(f"{self.seat.name}: room_full")
                if code not in JOIN_AGAIN:
                    await line.close()
                    raise self._refused(answer)
                await asyncio.sleep(retry_pause(answer, self._rng))
            avoid = line.url
            await line.close()

    async def _keep(self) -> None:
        """Rejoin as soon as the connection drops."""
        while True:
            line = self.line
            assert line is not None
            await line.closed.wait()
            drop = self.dropped()
            dropped_at = time.monotonic()
            await line.close()
            try:
                await self.join()
            except Refused as exc:
                self.failure = (
                    f"{self.seat.name} could not rejoin: {exc.code}; its last messages: "
                    + " | ".join(exc.trail)
                )
                return
            except Exception as exc:  # a keeper that dies must say why, never stall unseen
                self.failure = (
                    f"{self.seat.name} stopped rejoining: {type(exc).__name__}: {exc}; its "
                    "last messages: " + " | ".join(self.trail)
                )
                raise
            self.reconnects += 1
            self.rejoined(drop, time.monotonic() - dropped_at)

    # -- acting ---------------------------------------------------------------------------

    async def seen(self, version: int) -> None:
        """Until this client knows ``version`` (the caller bounds the wait)."""
        await self.until(lambda: self.version is not None and self.version >= version)

    async def until(self, done: Callable[[], bool]) -> None:
        """Until ``done()`` holds, checked after every message (the caller bounds the wait,
        ``asyncio.timeout``). A ``room`` that missed a version or changed wholesale (a
        takeback, a rematch) is brought up to date with a ``sync`` meanwhile."""
        while not done():
            line = self.line
            if self.room.gap and line is not None and self.joined.is_set():
                self.room.gap = False
                await line.send({"type": "sync"})
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 1.0)

    async def request(self, message: Message, ref: str) -> Message:
        """Send ``message`` until it is answered (its answer carries ``ref``): the same
        message again after a drop, a silence or a ``busy``/``unavailable``. The answer, or
        Refused."""
        while True:
            await self.joined.wait()
            line = self.line
            assert line is not None
            if not await line.send(message):
                await line.closed.wait()
                continue
            reply = await line.reply(lambda m: is_answer_to(m, ref))
            if reply is None:
                await line.closed.wait()  # the keeper rejoins; then the same message again
                continue
            if reply["type"] != "error":
                return reply
            if str(reply.get("code")) not in RETRYABLE:
                raise self._refused(reply)
            await asyncio.sleep(retry_pause(reply, self._rng))

    async def move(
        self,
        row: int | None,
        col: int,
        layer: int | None = None,
        *,
        move_id: str | None = None,
        version: int | None = None,
    ) -> Message:
        """Play a move until ``move_ok`` (``duplicate`` true when an earlier try had
        landed), against ``version`` (default: the newest known); the same ``move_id`` and
        version on every try. Refused when the server refuses it. ``row`` None with gravity,
        ``layer`` only in 3D."""
        against = self.version if version is None else version
        assert against is not None, "join() first"
        move_id = move_id or new_move_id()
        return await self.request(move_message(move_id, against, row, col, layer), move_id)

    async def command(self, kind: str, **fields: Any) -> Message:
        """A lifecycle command (``resign``, ``offer_draw``, ``rematch``, ``sync``...) with a
        fresh ``id``; its ``ack`` (or ``state``), or Refused."""
        ref = new_move_id()
        return await self.request({"type": kind, "id": ref, **fields}, ref)

    async def close(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._keeper
        if self.line is not None:
            await self.line.close()
