"""One WebSocket connection to one room, from the first ``join`` to the close.

The session reads frames, enforces the edge rules (join timeout, binary frames, message
size, rate limit, flood), turns messages into room commands through the service, and sends
replies to this connection only; the room's events reach it through its Feed. Honest
mistakes get an ``error`` and the socket stays open; abuse closes it with a documented code.
Its connection id names this worker, and the worker's presence indexes the room with the
join and records the departure after (rooms.presence.lease): if the worker's lease is lost, the
connection is closed with 1012 and the client resumes.

Besides this module, the session's parts are its reading (server.ws.frames), what only
spectators reach (a delayed watch, guesses: server.ws.spectating) and its end, the closes it
makes and the departure (server.ws.ending). A move's path (``_move``, ``_command``) is all here.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket

from rooms import ErrorCode, Executed, Hub, LeaseLost, Presence, RoomError, RoomService
from rooms.guesses import GuessDesk
from rooms.players import PlayerDirectory
from rooms.protocol import (
    ActionMessage,
    ChatMessage,
    ClientMessage,
    ClientType,
    GuessMessage,
    JoinMessage,
    MoveMessage,
    PingMessage,
    SyncMessage,
    ack_message,
    ack_version,
    command_for,
    dumps,
    error_message,
    move_ok_message,
    parse_message,
    pong_message,
    welcome_message,
)
from rooms.room import Command, Join, JoinReply, MoveReply, PlayMove, Role

from ..bot_api.seats import BotSeat, bot_may, join_identity
from ..crash_points import AFTER_SEAT, crash_point
from ..fastpath.direct_receive import receive_directly, stop_receiving_directly
from ..guards.admission import LoopLag
from ..metrics import edge as metrics
from ..settings import Settings
from ..telemetry import tracing
from .chat import chat_line
from .close_codes import CloseCode
from .connection import Connection
from .ending import Ending
from .frames import FrameReader
from .heartbeat import Heartbeats
from .joined import Joined
from .limits import TokenBucket
from .refusals import CLOSE_REFUSALS, JOIN_REFUSED_FOR_SURE
from .spectating import Spectating

if TYPE_CHECKING:  # the gate imports this package's limits, which import this module
    from ..bot_api.gate import BotGate

__all__ = ["Session"]

log = logging.getLogger("tictactoe.server")


class Session(FrameReader, Spectating, Ending):
    def __init__(
        self,
        websocket: WebSocket,
        room_id: str,
        *,
        service: RoomService,
        hub: Hub,
        settings: Settings,
        presence: Presence,
        players: PlayerDirectory,
        desk: GuessDesk | None = None,
        lag: LoopLag | None = None,
        conn_id: str | None = None,
        watch_only: bool = False,
        heartbeats: Heartbeats | None = None,
        bot_gate: BotGate | None = None,
    ) -> None:
        self.room_id = room_id
        self.bot_gate = bot_gate  # bot accounts' tokens and limits (server.bot_api.gate)
        self._bot: BotSeat | None = None  # joined with a bot's token
        self.heartbeats = heartbeats  # watches this connection once it sends a ping
        self.watch_only = watch_only  # the spectators' path: a player's join is refused
        self.players = players
        self.desk = desk  # spectators' guesses (rooms.guesses); None: this server takes none
        self.lag = lag
        self.service = service
        self.hub = hub
        self.settings = settings
        self.presence = presence
        self.websocket = websocket
        self.conn = Connection(
            websocket,
            queue_size=settings.send_queue,
            conn_id=presence.connection_id() if conn_id is None else conn_id,
        )
        loop = asyncio.get_running_loop()
        self._clock = loop.time
        self._bucket = TokenBucket(settings.rate, settings.burst, self._clock())
        self._strikes = 0
        self._join_deadline = self._clock() + settings.join_timeout
        self._joined: Joined | None = None
        self._chat = TokenBucket(settings.chat_rate, settings.chat_burst, self._clock())
        self._deliberate = False  # a leave was received: the departure is a leave
        self._spent = False  # a join that may have landed failed: this id is done
        self._task: asyncio.Task[object] | None = None
        self._stopped = False  # ended from outside: the cancel of the read is ours
        self._oversize = 0  # messages refused as too large (the first one is logged)
        self._parked = False  # the reader waits for the next message
        self._direct: asyncio.Task[None] | None = None  # a message taken directly, under way
        self._context: contextvars.Context | None = None  # this socket's (log context)
        self.heard = self._clock()  # when the client last sent a message (heartbeat.py)
        self.checked = 0.0  # when the heartbeat sweep last found it silent

    async def run(self) -> None:
        # The reader runs in this (the ASGI) task: one task per connection fewer, which
        # counts when a worker holds thousands. When the connection is ended from outside
        # (too slow, lease lost), ``_stop_reading`` cancels the read in progress.
        task = asyncio.current_task()
        assert task is not None
        self._task = task
        self._context = contextvars.copy_context()
        self.conn.on_end = self._stop_reading
        try:
            await self._read()
        except asyncio.CancelledError:
            if not self._stopped:
                raise  # the server is shutting down: not ours to swallow
            task.uncancel()
            if self.conn.close_code is None and self._joined is not None:
                # The peer went away while a send failed, not while we read: a ``leave``
                # it sent may still wait, unread, in front of the disconnect.
                self._deliberate = self._deliberate or await self._leave_unread()
        except Exception:  # a bug in the reader: close this connection, keep serving
            log.exception("room %s: connection %s failed", self.room_id, self.conn.id)
            self.conn.end(CloseCode.INTERNAL_ERROR, "internal error")
        finally:
            self.conn.on_end = None
            if self.heartbeats is not None:
                self.heartbeats.forget(self)
            stop_receiving_directly(self.websocket)
            if self.conn.close_code in CLOSE_REFUSALS:  # ended by the reader or by a sender
                self._refused(CLOSE_REFUSALS[self.conn.close_code], self.conn.close_code)
            try:
                await self._direct_settled()  # a message taken directly ends first
                await self._leave()
            finally:
                metrics.closed(self.conn.close_code)
                await self.conn.close(self.settings.close_timeout)

    def _has_joined(self) -> bool:
        return self._joined is not None

    def _refused(self, refusal: str, code: int | None) -> None:
        """Log an edge refusal once, at WARNING (the room and connection come from the
        context that server.ws.socket set for this socket)."""
        log.warning(
            "refused a client: %s%s",
            refusal.replace("_", " "),
            f", closed with {code}" if code is not None else "",
            extra={"refusal": refusal, "close_code": code},
        )

    # -- handling -------------------------------------------------------------------------

    def _error(self, exc: RoomError, ref: str | None = None) -> None:
        message = error_message(exc.code, exc.message, exc.ref or ref, retry_after=exc.retry_after)
        if exc.code is ErrorCode.BOT_LIMIT and exc.field is not None:
            message["field"] = exc.field  # which limit (server.bot_api.gate)
        self.conn.send(dumps(message))
        metrics.error(exc.code, "websocket")

    async def _handle(self, text: str) -> None:
        with tracing.room_command(self.room_id):  # a span, with traces on (server.telemetry)
            await self._handle_message(text)

    async def _handle_message(self, text: str) -> None:
        ref: str | None = None
        try:
            message = parse_message(text, max_bytes=self.settings.max_message_bytes)
            metrics.received(message)
            tracing.command_type(message)
            ref = message.ref
            if isinstance(message, JoinMessage):
                await self._join(message)
            elif self._joined is None:
                raise RoomError(ErrorCode.NOT_JOINED, "the first message must be a join")
            elif self._bot is not None and not await self._bot_may(message):
                return
            elif isinstance(message, MoveMessage):
                await self._move(message)
            elif isinstance(message, SyncMessage):
                await (self._joined.delayed or self._joined.feed).send_state(message.ref)
            elif isinstance(message, PingMessage):
                if self.heartbeats is not None:  # from now on held to its heartbeat
                    self.heartbeats.keep(self)
                self.conn.send(dumps(pong_message(message.ref)))
            elif isinstance(message, ChatMessage):
                await self._say(message)
            elif isinstance(message, GuessMessage):
                await self._guess(message)
            elif isinstance(message, ActionMessage):
                await self._act(message)
        except RoomError as exc:
            tracing.command_failed(exc.code.value)
            if exc.code is ErrorCode.NOT_JOINED and self._joined is not None:
                self._evicted()  # by another worker: the client resumes (server.ws.ending)
                return
            self._error(exc, ref)
            if self._spent:
                self._rejoin_afresh()
            elif exc.code is ErrorCode.TOO_LARGE:
                self._oversize += 1
                if self._oversize == 1:  # the rate limit bounds the rest; not a log flood
                    self._refused("message_too_large", None)
            if exc.code is ErrorCode.ROOM_NOT_FOUND:
                self.conn.end(CloseCode.ROOM_NOT_FOUND, "no such room")
            elif isinstance(exc, LeaseLost):  # this id cannot join here: resume afresh
                self._lease_lost()
        except Exception as exc:
            tracing.command_failed(ErrorCode.INTERNAL_ERROR.value, exc)
            log.exception("room %s: internal error while handling a message", self.room_id)
            self._error(RoomError(ErrorCode.INTERNAL_ERROR, "internal error; nothing changed"), ref)
            if self._spent:
                self._rejoin_afresh()

    async def _join(self, message: JoinMessage) -> None:
        if self._joined is not None:
            raise RoomError(ErrorCode.ALREADY_JOINED, "this connection already joined the room")
        if self.watch_only and message.role is Role.PLAYER:
            # Nothing written: the connection stays open for a spectator's join.
            raise RoomError(
                ErrorCode.NOT_A_PLAYER,
                f"/ws/{self.room_id}/watch is for spectators; players join on /ws/{self.room_id}",
            )
        if message.token is None and message.last_version is None and self.lag is not None:
            # A newcomer: not when overloaded. A spectator coming back with the version it
            # saw is resuming a watch, like a player with its token: its handshake is paid,
            # and refusing it only makes it come back (the reconnect storm after a worker
            # dies is mostly spectators).
            self.lag.check("join")
        # Not under a live lease (cut off from the store, or lost and not registered
        # again): closed with 1012 at once, and the client resumes on another worker,
        # instead of waiting on this one's store for every try.
        self.presence.check(self.conn.id)
        # A read before the room's commit (an identity is not room state); bad_identity
        # refuses the join before anything is written.
        player, self._bot = await join_identity(self.bot_gate, self.players, message)
        feed = self.conn.feed(self.room_id, self.service)
        await self.hub.attach(self.room_id, feed)  # subscribe first, then read the room
        try:
            # The room indexed under this worker, then the Join committed (on one Redis,
            # both in one commit); on a failure after the index, presence has recorded a
            # departure: a join refused by the room changed nothing, but one whose commit
            # lost its answer (Redis timed out) may have landed.
            command = Join(
                self.conn.id,
                message.role,
                message.name or (player.name if player is not None else None),
                message.token,
                message.join_key,
                player.player_id if player is not None else None,
                bot=player is not None and player.bot,
            )
            executed = await self.presence.join(self.room_id, command, self._lease_lost)
        except BaseException as exc:
            if not isinstance(exc, LeaseLost):  # a lost lease closes with 1012 by itself
                refused = isinstance(exc, RoomError) and exc.code in JOIN_REFUSED_FOR_SURE
                self._spent = not refused and isinstance(exc, Exception)
            feed.close()
            await self.hub.detach(self.room_id, feed)
            raise
        assert isinstance(executed.reply, JoinReply)
        if executed.reply.token is not None:  # a seat taken: only tests ever crash here
            crash_point(AFTER_SEAT)
        self._joined = Joined(feed, executed.reply, message.name or "Spectator")
        metrics.joined(executed.reply.mark is not None)
        feed.audience = "players" if executed.reply.mark is not None else "spectators"
        room = executed.room
        if executed.reply.mark is None and room.settings.watch_delay > 0:
            await self._join_delayed(feed, executed)  # server.ws.spectating
            receive_directly(self.websocket, self._offered)
            return
        if executed.reply.mark is None and self.desk is not None:
            self.desk.watch(self.room_id, self.conn.id, self.conn.send)
        missed = None
        if message.last_version is not None:
            try:
                texts = await self.service.events_since(
                    self.room_id, message.last_version, upto=room.version
                )
            except RoomError:
                texts = None  # the snapshot is the truth anyway
            missed = [json.loads(text) for text in texts] if texts is not None else None
        welcome = welcome_message(self.room_id, executed.reply, room.snapshot(), missed)
        self.conn.send(dumps(welcome))
        feed.start(room.version)
        receive_directly(self.websocket, self._offered)  # fastpath: the messages that follow

    async def _bot_may(self, message: ClientMessage) -> bool:
        """A bot's seat (server.bot_api.seats): False, after ``bad_identity`` and a 4401
        close, once its token is revoked."""
        assert self._bot is not None
        if await bot_may(self.bot_gate, self._bot, message):
            return True
        revoked = RoomError(ErrorCode.BAD_IDENTITY, "this bot token was revoked; nothing done")
        self._error(revoked, message.ref)
        self.conn.end(CloseCode.BOT_TOKEN_REFUSED, "bot token revoked")
        return False

    async def _move(self, message: MoveMessage) -> None:
        command = PlayMove(self.conn.id, message.request, message.version, message.move_id)
        try:
            await self._command(command, _move_ok)
        except RoomError as exc:
            exc.ref = exc.ref or message.move_id
            raise

    async def _command(self, command: Command, answer: Callable[[Executed], str]) -> Executed:
        """``service.execute`` of a joined connection's command, answered with ``answer``'s
        text and the event the command committed, in one write when that event is the next
        one this connection is owed (Feed.answer). The room's events wait meanwhile; if
        anything fails before the answer they go on without it."""
        assert self._joined is not None
        feed = self._joined.feed
        feed.expect()
        try:
            executed = await self.service.execute(self.room_id, command)
            reply = answer(executed)
        except BaseException:
            feed.release()
            raise
        feed.answer(reply, executed.room.version, executed.event_text)
        return executed

    async def _act(self, message: ActionMessage) -> None:
        """A room action (rooms.protocol.actions), answered with an ``ack``."""
        leaving = message.kind is ClientType.LEAVE
        if leaving:
            # Received is enough: if the connection ends before this commit answers (the
            # peer closed and an event's send failed, which cancels this read), the close
            # path records the departure as a leave; after this commit it changes nothing.
            self._deliberate = True
        await self._command(
            command_for(message, self.conn.id),
            lambda executed: dumps(
                ack_message(message.ref, ack_version(executed.reply, executed.event))
            ),
        )
        if leaving:  # recorded: the close that follows changes nothing more
            self.conn.end(CloseCode.NORMAL, "left")

    async def _say(self, message: ChatMessage) -> None:
        assert self._joined is not None
        if not self._chat.take(self._clock()):
            raise RoomError(ErrorCode.RATE_LIMITED, "too many chat lines; wait a moment")
        await chat_line(
            self.service,
            self.hub,
            self.room_id,
            self.conn.id,
            message,
            spectator_name=self._joined.name,
        )
        self.conn.send(dumps(ack_message(message.ref, None)))


def _move_ok(executed: Executed) -> str:
    """The answer to a move that landed (or was a duplicate)."""
    assert isinstance(executed.reply, MoveReply)
    return dumps(move_ok_message(executed.reply))
