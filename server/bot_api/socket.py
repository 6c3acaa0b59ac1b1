"""``/ws/bot``: a bot account's socket, where it hears of its challenges and seats.

The first message is ``hello`` with the bot's token (never in the URL: URLs are logged);
the server answers ``bot_welcome``, marks the bot online (the lobby and quick play offer
it), and from then on looks at the bot's desk (rooms.bots.desk) every ``bot_poll`` seconds:
each challenge and each seat is sent once on this socket, a challenge unanswered after
``CHALLENGE_TTL`` is withdrawn, and the token is checked again, so a rotated or revoked token
closes the socket (4401) within a poll on whichever worker holds it. The bot answers
challenges here (``accept``, ``decline``) and plays each game on the room's own socket,
joining with its token (docs/protocol.md, "Bots").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from rooms import ErrorCode, RoomError
from rooms.bots import BotDesk
from rooms.bots.challenges import (
    CHALLENGE,
    CHALLENGE_TTL,
    SEAT,
    Challenge,
    accept,
    active_games,
    decline,
    expire,
)
from rooms.players import Player
from rooms.protocol import dumps

from ..state import AppState, app_state
from ..ws.close_codes import CloseCode
from ..ws.handshake import admitted
from ..ws.limits import TokenBucket
from . import metrics
from .gate import BotGate
from .messages import BotClientType, BotMessage, error, parse_bot_message

__all__ = ["bot_socket"]

log = logging.getLogger("tictactoe.server")

_ONLINE_FOR = 10.0
"""Seconds a bot counts as online after its socket's last look at the desk (a worker that
dies leaves it online this long at most)."""
_TIDY_EVERY = 8
"""Polls between two clean-ups of the seats of games that are over."""


async def bot_socket(websocket: WebSocket) -> None:
    state = app_state(websocket.app)
    async with admitted(websocket, state) as let_in:
        if not let_in:
            return
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await _BotSession(websocket, state).run()


class _BotSession:
    def __init__(self, websocket: WebSocket, state: AppState) -> None:
        assert state.bot_gate is not None
        self.websocket = websocket
        self.state = state
        self.gate: BotGate = state.bot_gate
        self.desk: BotDesk = state.backend.bot_desk
        self.settings = state.settings
        self._sent: set[str] = set()  # desk entries told on this socket
        self._send_lock = asyncio.Lock()
        loop = asyncio.get_running_loop()
        self._clock = loop.time
        self._bucket = TokenBucket(self.settings.rate, self.settings.burst, self._clock())

    async def _send(self, text: str) -> None:
        async with self._send_lock:
            await self.websocket.send_text(text)

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await self.websocket.close(code, reason)

    async def run(self) -> None:
        hello = await self._hello()
        if hello is None:
            return
        bot, token = hello
        metrics.online()
        try:
            await self._send(
                dumps(
                    {
                        "type": "bot_welcome",
                        "bot": bot.public(),
                        "limits": self.gate.limits.public(),
                        "poll": self.settings.bot_poll,
                    }
                )
            )
            reader = asyncio.create_task(self._read(bot))
            poller = asyncio.create_task(self._poll(bot, token))
            done, pending = await asyncio.wait(
                {reader, poller}, return_when=asyncio.FIRST_COMPLETED
            )
            for task in pending:
                task.cancel()
            for task in pending:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            for task in done:
                exc = task.exception()
                if exc is not None and not isinstance(
                    exc, WebSocketDisconnect | RuntimeError | OSError
                ):
                    log.error("bot %s: its socket failed: %r", bot.player_id, exc)
                    await self._close(CloseCode.INTERNAL_ERROR, "internal error")
        finally:
            metrics.offline()
            with contextlib.suppress(RoomError):
                await self.desk.set_offline(bot.player_id)

    async def _hello(self) -> tuple[Player, str] | None:
        """The bot and its token, from a ``hello`` within ``join_timeout`` of the connect;
        None when none came (closed 4001) or its token was refused (closed 4401). Any other
        message before it gets an error, and the socket waits on."""
        try:
            async with asyncio.timeout(self.settings.join_timeout):
                while True:
                    text = await self.websocket.receive_text()
                    ref = None
                    try:
                        message = parse_bot_message(text, max_bytes=self.settings.max_message_bytes)
                        ref = message.ref
                        if message.kind is not BotClientType.HELLO or message.token is None:
                            raise RoomError(
                                ErrorCode.NOT_JOINED, "the first message must be a hello"
                            )
                        bot = await self.gate.authenticate(message.token)
                        now = self.state.service.now()
                        await self.desk.set_online(bot.player_id, now + _ONLINE_FOR)
                        return bot, message.token
                    except RoomError as exc:
                        await self._send(error(exc, ref))
                        if exc.code is ErrorCode.BAD_IDENTITY:
                            await self._close(CloseCode.BOT_TOKEN_REFUSED, "bot token refused")
                            return None
        except TimeoutError:
            await self._close(CloseCode.JOIN_TIMEOUT, "no hello in time")
            return None

    async def _read(self, bot: Player) -> None:
        while True:
            text = await self.websocket.receive_text()
            ref = None
            try:
                if not self._bucket.take(self._clock()):
                    raise RoomError(ErrorCode.RATE_LIMITED, "too many messages; slow down")
                message = parse_bot_message(text, max_bytes=self.settings.max_message_bytes)
                ref = message.ref
                await self._handle(bot, message)
            except RoomError as exc:
                if exc.code is ErrorCode.BOT_LIMIT and exc.field is not None:
                    metrics.refused(exc.field)
                await self._send(error(exc, ref))

    async def _handle(self, bot: Player, message: BotMessage) -> None:
        service = self.state.service
        if message.kind is BotClientType.PING:
            await self._send(dumps({"type": "pong", "ref": message.ref}))
            return
        if message.kind is BotClientType.HELLO:
            raise RoomError(ErrorCode.ALREADY_JOINED, "this socket said hello already")
        assert message.challenge_id is not None
        self._sent.add(CHALLENGE + message.challenge_id)  # answered: never told again
        if message.kind is BotClientType.ACCEPT:
            seat = await accept(service, self.desk, bot, message.challenge_id, self.gate.limits)
            await self._send(dumps({"type": "ack", "ref": message.ref}))
            self._sent.add(SEAT + seat["room_id"])
            await self._send(dumps(seat))
        else:
            await decline(service, self.desk, bot.player_id, message.challenge_id)
            await self._send(dumps({"type": "ack", "ref": message.ref}))

    async def _poll(self, bot: Player, token: str) -> None:
        service, polls = self.state.service, 0
        while True:
            if not await self.gate.still_valid(token):
                await self._send(
                    error(RoomError(ErrorCode.BAD_IDENTITY, "this bot token was revoked"), None)
                )
                await self._close(CloseCode.BOT_TOKEN_REFUSED, "bot token revoked")
                return
            now = service.now()
            await self.desk.set_online(bot.player_id, now + _ONLINE_FOR)
            if polls % _TIDY_EVERY == 0:
                await active_games(service, self.desk, bot.player_id)
            polls += 1
            for key, value in sorted((await self.desk.entries(bot.player_id)).items()):
                await self._tell(bot, key, value, now)
            await asyncio.sleep(self.settings.bot_poll)

    async def _tell(self, bot: Player, key: str, value: str, now: float) -> None:
        """Send the desk entry ``key`` if this socket has not yet (a challenge past its time
        is withdrawn instead)."""
        if key in self._sent:
            return
        if key.startswith(CHALLENGE):
            challenge = Challenge.from_json(value)
            if now - challenge.created > CHALLENGE_TTL:
                await expire(self.state.service, self.desk, bot.player_id, key)
                return
            message: dict[str, Any] = challenge.message()
        elif key.startswith(SEAT):
            message = json.loads(value)
        else:
            return
        self._sent.add(key)
        await self._send(dumps(message))
