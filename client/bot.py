"""Playing as a bot account (docs/protocol.md, "Bots"), in asyncio.

A bot hears of challenges and seats on its own socket, ``/ws/bot``, and plays each game on
the room's socket like anyone else, joining with its token. ``BotClient`` holds the bot
socket: ``connect`` says ``hello``; ``next`` hands over each ``challenge`` and ``seat`` once
(the server tells a new connection again of what still waits: those are not handed twice),
reconnecting after a drop; ``accept`` and ``decline`` answer a challenge; ``room`` makes the
``AsyncRoomClient`` of a seat (joined with the bot's token: resumed the same way after a
drop). ``run_bot`` is the loop most bots want: answer each challenge by a rule, play each
seat with a coroutine, side by side. ``create_bot`` and ``challenge_bot`` are the HTTP side.
A token rotated or revoked is refused at once: ``Refused`` ``bad_identity`` (close 4401).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake, InvalidURI

from .aio import OPEN_TIMEOUT, REPLY_WAIT, AsyncRoomClient
from .errors import Disconnected, Refused
from .http import request_json
from .lines import Line
from .wire import (
    PERMANENT_CLOSES,
    REPLY_TYPES,
    Message,
    Seat,
    is_answer_to,
    new_move_id,
    room_socket_url,
)

__all__ = ["ATTEMPTS", "BotAccount", "BotClient", "challenge_bot", "create_bot", "run_bot"]

ATTEMPTS = 10
"""Failed connections in a row before the bot socket gives up (``Disconnected``)."""
MAX_DELAY = 5.0
NEWS = frozenset({"challenge", "seat"})
TOKEN_REFUSED = 4401
"""The close code for a bot token that is not (any more) the bot's."""


@dataclass(frozen=True, slots=True)
class BotAccount:
    """A bot account as ``POST /api/bots`` made it: ``secret`` manages it, ``token`` plays."""

    player_id: str
    name: str
    secret: str
    token: str

    def __repr__(self) -> str:  # never print a secret or a token
        return f"BotAccount(player_id={self.player_id!r}, name={self.name!r})"


def create_bot(http_base: str, name: str) -> BotAccount:
    """``POST /api/bots``: a new bot account (its secret and token are shown this once)."""
    made = request_json(http_base, "POST", "/api/bots", {"name": name})
    return BotAccount(made["player_id"], made["name"], made["secret"], made["token"])


def challenge_bot(
    http_base: str, bot_id: str, body: dict[str, Any] | None = None, *, token: str | None = None
) -> dict[str, Any]:
    """``POST /api/bots/{bot_id}/challenge``: ``body`` has the optional ``rules``,
    ``time_control``, ``rated``, and a person's ``name`` or ``player``; a bot challenges with
    its ``token``. The answer: ``challenge_id``, ``room_id``, ``mark`` and the challenger's
    seat ``token`` (None for a bot: it joins with its own token)."""
    path = f"/api/bots/{quote(bot_id, safe='')}/challenge"
    return request_json(http_base, "POST", path, body or {}, bearer=token)


def _news_key(message: Message) -> str:
    if message.get("type") == "challenge":
        return f"challenge:{message.get('challenge_id')}"
    return f"seat:{message.get('room_id')}"


class BotClient:
    """The bot socket of the server at ``http_base`` (``http://host:port``) for ``token``."""

    def __init__(
        self,
        http_base: str,
        token: str,
        *,
        name: str | None = None,
        attempts: int = ATTEMPTS,
        reply_wait: float = REPLY_WAIT,
        open_timeout: float = OPEN_TIMEOUT,
    ) -> None:
        self.http_base = http_base.rstrip("/")
        self.url = "ws" + self.http_base.removeprefix("http") + "/ws/bot"
        self.token = token
        self.name = name
        """The name the bot's seats are joined with (None: its account's)."""
        self.attempts = attempts
        self.reply_wait = reply_wait
        self.reply_types = REPLY_TYPES | {"bot_welcome"}
        self.open_timeout = open_timeout
        self.welcome: Message | None = None
        """The last ``bot_welcome``: the bot's account and limits."""
        self.line: Line | None = None
        self.reconnects = 0
        self.trail: deque[str] = deque(maxlen=16)
        self._news: asyncio.Queue[Message] = asyncio.Queue()
        self._handed: set[str] = set()
        self._rng = random.Random()

    # -- a Line's owner (client.lines.LineOwner) --------------------------------------------

    def server_of(self, ws: ClientConnection, url: str) -> str:
        return url

    def observe(self, message: Message) -> None:
        if message.get("type") in NEWS:
            key = _news_key(message)
            if key not in self._handed:  # a new connection is told again: hand it over once
                self._handed.add(key)
                self._news.put_nowait(message)

    def noted(self, way: str, line: Line, message: Message) -> None:
        fields = ("type", "code", "challenge_id", "room_id", "ref")
        brief = " ".join(str(message[key]) for key in fields if message.get(key) is not None)
        self.trail.append(f"{way} {brief}")

    def line_closed(self, line: Line) -> None:
        """Noticed by ``next`` and the requests, which connect again."""

    # -- the socket -----------------------------------------------------------------------

    async def connect(self) -> Message:
        """Open the socket and say ``hello``; the ``bot_welcome``. Refused ``bad_identity``
        for a token that is not the bot's current one; Disconnected after ``attempts``
        failures in a row."""
        failures = 0
        while True:
            try:
                return await self._hello()
            except Disconnected:
                failures += 1
                if failures >= self.attempts:
                    raise
                await asyncio.sleep(min(0.25 * 2 ** (failures - 1), MAX_DELAY))

    async def _hello(self) -> Message:
        if self.line is not None:
            await self.line.close()
            self.line = None
        try:
            ws = await connect(self.url, proxy=None, open_timeout=self.open_timeout)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
            raise Disconnected(f"cannot connect to {self.url}: {exc}") from None
        line = Line(ws, self.url, self)
        ref = new_move_id()
        answer = None
        if await line.send({"type": "hello", "token": self.token, "id": ref}):
            answer = await line.reply(
                lambda m: m.get("type") == "bot_welcome" or m.get("ref") == ref
            )
        if answer is None or answer.get("type") == "error":
            await line.close()
            code = line.ws.close_code
            if answer is not None:
                raise Refused(str(answer.get("code")), str(answer.get("message")), answer)
            if code == TOKEN_REFUSED:
                raise Refused("bad_identity", "the bot's token is not valid (4401)")
            raise Disconnected(f"the bot socket closed before its welcome ({code})")
        if self.welcome is not None:
            self.reconnects += 1
        self.line, self.welcome = line, answer
        return answer

    async def _live_line(self) -> Line:
        """The open line, connecting again if it closed (a 4401 close: Refused)."""
        line = self.line
        if line is not None and not line.closed.is_set():
            return line
        code = line.ws.close_code if line is not None else None
        if code == TOKEN_REFUSED:
            raise Refused("bad_identity", "the bot's token was rotated or revoked (4401)")
        if code in PERMANENT_CLOSES:
            raise Disconnected(f"the server closed the bot socket for good ({code})")
        await self.connect()
        assert self.line is not None
        return self.line

    async def next(self) -> Message:
        """The next ``challenge`` or ``seat`` not handed over yet (each once, in arrival
        order), reconnecting when the socket drops."""
        while self._news.empty():
            line = await self._live_line()
            taken = asyncio.ensure_future(self._news.get())
            closed = asyncio.ensure_future(line.closed.wait())
            try:
                await asyncio.wait({taken, closed}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                closed.cancel()
                if not taken.done():
                    taken.cancel()
            if taken.done() and not taken.cancelled():
                return taken.result()
        return self._news.get_nowait()

    async def _request(self, message: Message) -> Message | None:
        """Send ``message`` (with a fresh ``id``) until answered: the answer, Refused on an
        error, or None for ``not_found`` after a retry (the first try's answer was lost, and
        it had been answered)."""
        ref = new_move_id()
        message = {**message, "id": ref}
        tries = 0
        while True:
            line = await self._live_line()
            tries += 1
            reply = None
            if await line.send(message):
                reply = await line.reply(lambda m: is_answer_to(m, ref))
            if reply is None:
                line.abort()  # silent or gone: connect again and ask again
                continue
            if reply.get("type") != "error":
                return reply
            if reply.get("code") == "not_found" and tries > 1:
                return None
            raise Refused(str(reply.get("code")), str(reply.get("message")), reply)

    async def accept(self, challenge_id: str) -> Message | None:
        """Accept a challenge: its ``ack`` (the ``seat`` follows through ``next``); Refused
        ``bot_limit`` (with ``field``) or ``not_found`` (answered or withdrawn already)."""
        return await self._request({"type": "accept", "challenge_id": challenge_id})

    async def decline(self, challenge_id: str) -> Message | None:
        """Decline a challenge (its room is aborted): its ``ack``; Refused ``not_found``."""
        return await self._request({"type": "decline", "challenge_id": challenge_id})

    def room(self, seat: Message) -> AsyncRoomClient:
        """The room client of a ``seat`` message, joined with the bot's token (``join`` it)."""
        url = room_socket_url(self.http_base, str(seat["room_id"]))
        return AsyncRoomClient(url, Seat("player", self.name, bot_token=self.token))

    async def close(self) -> None:
        if self.line is not None:
            await self.line.close()
            self.line = None


Play = Callable[[AsyncRoomClient, Message], Awaitable[object]]


async def run_bot(
    bot: BotClient,
    play: Play,
    *,
    accept: Callable[[Message], bool] = lambda challenge: True,
    notify: Callable[[str], None] = lambda line: None,
) -> None:
    """Be the bot until cancelled: answer each challenge with ``accept(challenge)``, and
    play each seat with ``play(room, seat)`` (the room already joined; closed afterwards),
    the games side by side. A game whose ``play`` fails is told to ``notify`` and left
    (its room resumes nothing); a refused token ends the loop (Refused)."""
    games: set[asyncio.Task[None]] = set()

    async def seated(seat: Message) -> None:
        room = bot.room(seat)
        try:
            await room.join()
            await play(room, seat)
        except Exception as exc:  # one game's failure is not the bot's
            notify(f"the game in {seat.get('room_id')} failed: {type(exc).__name__}: {exc}")
        finally:
            await room.close()

    if bot.welcome is None:
        await bot.connect()
    try:
        while True:
            news = await bot.next()
            if news["type"] == "seat":
                task = asyncio.create_task(seated(news))
                games.add(task)
                task.add_done_callback(games.discard)
                continue
            challenge_id = str(news.get("challenge_id"))
            try:
                if accept(news):
                    await bot.accept(challenge_id)
                else:
                    await bot.decline(challenge_id)
            except Refused as exc:
                if exc.code == "bad_identity":
                    raise
                notify(f"challenge {challenge_id}: {exc.code}: {exc}")
    finally:
        for task in games:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*games, return_exceptions=True)
