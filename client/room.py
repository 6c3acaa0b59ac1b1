"""A room over the protocol, blocking: join, resume, play moves that land once.

``RoomClient`` speaks docs/protocol.md with the synchronous ``websockets`` client and keeps a
``RoomMirror`` of the room. When the connection drops it reconnects with its seat token and
the last version it saw; a move whose answer was lost is sent again with the same ``move_id``
(applied at most once). A seat-taking join carries a join key (client.wire.Seat) until the
token arrives, so a join whose answer was lost is sent again and gets the same seat. It is
the terminal client's (``tictactoe play --connect``) and the engine bridge's; asyncio code
has client.aio.
"""

from __future__ import annotations

import contextlib
import functools
import json
import time
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidURI
from websockets.sync.client import ClientConnection, connect

from core import MoveRequest, Rules

from .errors import Disconnected, Refused
from .links import RoomLink
from .mirror import RoomMirror
from .wire import (
    JOIN_AGAIN,
    PERMANENT_CLOSES,
    REPLY_TYPES,
    RETRYABLE,
    Message,
    Seat,
    move_message,
    new_move_id,
    retry_pause,
)

__all__ = ["RoomClient"]

REPLY_WAIT = 30.0
"""Seconds a join may wait for its welcome before the connection counts as lost."""


class _AnswerLost(Disconnected):
    """The join went out and the connection ended before its answer: worth sending again."""


def backoff(attempt: int) -> float:
    """The pause before the ``attempt``-th try again (0-based): doubling, 3 s at most."""
    return min(0.2 * 2.0**attempt, 3.0)


class RoomClient:
    """One seat (or a spectator's view) of the room at ``link``.

    ``role`` is ``"player"`` or ``"spectator"``; ``player`` a guest identity's
    ``{"id", "secret"}`` (its seat is then linked to it); ``token`` a seat token held from
    before (resumes that seat); ``bot_token`` a bot account's token (its own seat:
    client.bot); ``notify`` hears what a person would be told; ``retries`` bounds the
    reconnects in a row."""

    def __init__(
        self,
        link: RoomLink,
        *,
        role: str,
        name: str | None = None,
        notify: Callable[[str], None] = lambda line: None,
        retries: int = 5,
        player: dict[str, str] | None = None,
        token: str | None = None,
        bot_token: str | None = None,
        join_fields: Message | None = None,
    ) -> None:
        self.link = link
        self.seat = Seat(
            role, name, token=token, player=player, bot_token=bot_token, extra={"protocol": 1}
        )
        self.seat.extra.update(join_fields or {})
        self.notify = notify
        self.retries = retries
        self.room = RoomMirror()
        self.reconnects = 0
        self._ws: ClientConnection | None = None
        self._connections = contextlib.ExitStack()
        self._replies: dict[str, Message] = {}
        self._events: list[Message] = []

    # -- what is known --------------------------------------------------------------------

    @property
    def role(self) -> str:
        return self.seat.role

    @property
    def mark(self) -> str | None:
        """This seat's mark (it changes with a rematch's ``new_game``); None: watching."""
        return self.room.mark

    @property
    def token(self) -> str | None:
        return self.seat.token

    @property
    def rules(self) -> Rules:
        return self.room.rules

    @property
    def moves(self) -> list[dict[str, Any]]:
        return self.room.moves

    @property
    def players(self) -> list[dict[str, Any]]:
        return self.room.players

    @property
    def status(self) -> str:
        return self.room.status

    @property
    def outcome(self) -> dict[str, Any] | None:
        return self.room.outcome

    @property
    def version(self) -> int:
        return self.room.version

    @property
    def my_turn(self) -> bool:
        """The game is being played and it is this seat's move."""
        return self.status == "playing" and self.mark is not None and self.room.turn == self.mark

    @property
    def socket_url(self) -> str:
        """A player's room socket, or a spectator's path."""
        return self.link.watch_ws_url if self.role == "spectator" else self.link.ws_url

    # -- connection -----------------------------------------------------------------------

    def connect(self) -> Message:
        """Join (or resume) the room; the welcome. Refused when refused (room_full,
        bad_token, room_not_found...), Disconnected when the server cannot be reached. A join
        whose answer was lost is sent again (up to ``retries`` times, with the same join key
        when it takes a seat)."""
        for attempt in range(self.retries):
            try:
                return self._join()
            except _AnswerLost:
                self.notify("The server did not answer the join; trying again...")
                time.sleep(backoff(attempt))
        return self._join()

    def _join(self) -> Message:
        """One connection and one join; the welcome (see ``connect``)."""
        try:
            opened = connect(self.socket_url, proxy=None, open_timeout=10, compression=None)
            ws = self._connections.enter_context(opened)  # closed by close()
        except (OSError, InvalidStatus, InvalidURI, TimeoutError) as exc:
            raise Disconnected(f"cannot connect to {self.socket_url}: {exc}") from None
        try:
            ws.send(json.dumps(self.seat.join_message()))
        except ConnectionClosed as exc:
            ws.close()
            raise Disconnected(f"the server closed the connection: {exc}") from None
        while True:
            try:
                message = json.loads(ws.recv(timeout=REPLY_WAIT))
            except (ConnectionClosed, TimeoutError) as exc:
                ws.close()
                raise _AnswerLost(f"the server did not welcome us: {exc}") from None
            if message["type"] == "error":
                ws.close()
                if message["code"] in JOIN_AGAIN:  # not now, or it may have landed
                    raise _AnswerLost(f"the join was not taken: {message['message']}")
                raise Refused(message["code"], message["message"], message)
            if message["type"] == "welcome":
                break
        self._ws = ws
        self.seat.welcomed(message)
        self.room.mark = self.seat.mark
        self.room.take(message)
        return dict(message)

    def close(self) -> None:
        self._ws = None
        self._connections.close()

    def _reconnect(self, closed: ConnectionClosed) -> None:
        code = closed.rcvd.code if closed.rcvd is not None else None
        if code in PERMANENT_CLOSES:
            reason = closed.rcvd.reason if closed.rcvd is not None else ""
            raise Disconnected(f"the server closed the connection ({code} {reason})")
        self.notify("Connection lost; reconnecting...")
        for attempt in range(self.retries):
            time.sleep(backoff(attempt))
            try:
                self._join()
            except Disconnected:
                continue
            self.reconnects += 1
            self.notify("Reconnected.")
            return
        raise Disconnected("lost the connection to the server and could not resume")

    # -- messages -------------------------------------------------------------------------

    def _handle(self, message: Message) -> None:
        kind = message["type"]
        ref = message.get("move_id") if kind == "move_ok" else message.get("ref")
        if ref is not None and kind in REPLY_TYPES:
            self._replies[str(ref)] = message
        if kind == "error":
            if ref is None:
                self.notify(f"server: {message['message']}")
            return
        self.seat.saw(message)
        note = self.room.take(message)
        if note is not None:
            self.notify(note)
        if self.room.gap:  # a version skipped, or the board changed wholesale
            self.room.gap = False  # one sync: its state replaces everything
            self.send({"type": "sync"})
        if kind not in REPLY_TYPES:
            self._events.append(message)

    def send(self, message: Message) -> None:
        """Send one message as it is (a lost one is noticed by the next receive)."""
        assert self._ws is not None, "connect() first"
        with contextlib.suppress(ConnectionClosed):
            self._ws.send(json.dumps(message))

    def _pump(self, timeout: float) -> bool:
        """Handle the next message (reconnecting if needed); False when none came in time.
        True also after a reconnect, which may have changed what is known."""
        assert self._ws is not None, "connect() first"
        try:
            text = self._ws.recv(timeout=timeout)
        except TimeoutError:
            return False
        except ConnectionClosed as closed:
            self._reconnect(closed)
            return True
        self._handle(json.loads(text))
        return True

    def drain(self) -> None:
        """Handle every message already arrived, without waiting for more."""
        while self._pump(0):
            pass

    def wait(self, done: Callable[[], bool], timeout: float | None = None) -> None:
        """Handle messages until ``done()``; Disconnected after ``timeout`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not done():
            if deadline is not None and time.monotonic() > deadline:
                raise Disconnected("the server did not answer in time")
            self._pump(1.0)

    def events(self) -> list[Message]:
        """The room's events handled since the last call (oldest first), taken."""
        taken, self._events = self._events, []
        return taken

    def request(self, message: Message, ref: str) -> Message:
        """Send ``message`` (whose answer carries ``ref``) until it is answered: the answer,
        or Refused with the server's code. After a reconnect, or a ``busy``/``unavailable``
        refusal, the very same message goes again."""
        refusals = 0
        while True:
            before = self.reconnects
            self.send(message)
            self.wait(functools.partial(self._settled, ref, before))
            reply = self._replies.pop(ref, None)
            if reply is None:
                continue  # reconnected before the answer: ask again, the same message
            if reply["type"] != "error":
                return reply
            if reply["code"] in RETRYABLE and refusals < self.retries:
                refusals += 1
                time.sleep(retry_pause(reply))
                continue
            raise Refused(reply["code"], reply["message"], reply)

    def _settled(self, ref: str, reconnects: int) -> bool:
        """``ref`` was answered, or the connection was made anew (the answer may be lost)."""
        return ref in self._replies or self.reconnects != reconnects

    def play(self, request: MoveRequest, move_id: str | None = None) -> Message:
        """Play a move against the version known now; its ``move_ok`` (``duplicate`` true if
        an earlier try had landed), or Refused with the server's code. Sent again with the
        same ``move_id`` after a reconnect: it lands once."""
        move_id = move_id or new_move_id()
        message = move_message(move_id, self.version, request.row, request.col, request.layer)
        return self.request(message, move_id)

    def command(self, kind: str, **fields: Any) -> Message:
        """A lifecycle command (``resign``, ``offer_draw``, ``rematch``, ``sync``...) with a
        fresh ``id``; its ``ack`` (or ``state``), or Refused."""
        ref = new_move_id()
        return self.request({"type": kind, "id": ref, **fields}, ref)
