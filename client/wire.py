"""The protocol's client side without I/O: what to send and what an answer means.

Every client of the library (blocking or asyncio, the terminal's, the bench's, the soak's)
builds its frames and reads its answers here, so the rules of docs/protocol.md ("Resume",
"Error codes", "Close codes") live in one place:

- a ``Seat`` is what a connection must say in its ``join``: the seat ``token`` once one is
  held, else the ``join_key`` chosen before the first join (a seat-taking join whose answer
  was lost gets the same seat with it), and ``last_version`` to resume;
- a move carries a client-chosen ``move_id`` and the version it was made against; sent
  again with the same id after a drop, it lands at most once (``is_answer_to``);
- ``RETRYABLE``, ``JOIN_AGAIN`` and ``PERMANENT_CLOSES`` sort refusals and closes into "try
  again" and "give up", and ``retry_pause`` spaces the tries.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "JOIN_AGAIN",
    "PERMANENT_CLOSES",
    "REPLY_TYPES",
    "RETRYABLE",
    "Message",
    "Seat",
    "is_answer_to",
    "is_room_version",
    "move_message",
    "new_move_id",
    "retry_pause",
    "room_socket_url",
]

Message = dict[str, Any]

RETRYABLE = frozenset({"unavailable", "busy"})
"""Error codes that mean "not now": the same message goes again after ``retry_pause``."""
JOIN_AGAIN = RETRYABLE | {"already_joined", "internal_error"}
"""A join refused with these is sent again on a new connection (same join key or token): the
store was away, or the join may have landed (the server then closes with 1012)."""
PERMANENT_CLOSES = frozenset({4001, 4003, 4004, 4008, 4401, 1003, 1008, 1009})
"""Close codes a reconnect cannot cure (no join in time, no such room, flooding, a bot token
no longer valid, bad frames)."""
REPLY_TYPES = frozenset({"welcome", "state", "move_ok", "ack", "pong", "error"})
"""Messages that answer one connection's command; the rest are the room's events."""


def room_socket_url(http_base: str, room_id: str, *, watch: bool = False) -> str:
    """The room's WebSocket for ``http_base`` (``http://host:port``); ``watch``: the
    spectators' path, which a balancer may spread over workers."""
    ws_base = "ws" + http_base.removeprefix("http")
    return f"{ws_base}/ws/{room_id}" + ("/watch" if watch else "")


@dataclass(slots=True)
class Seat:
    """What a connection says in its ``join``, kept across connections.

    ``role`` is ``"player"`` or ``"spectator"``. A player without a token gets a fresh
    ``join_key`` (unless one is given), sent with every join until a welcome brings a token;
    ``player`` is a guest identity's ``{"id", "secret"}``, sent only with a seat-taking join.
    ``version`` is the highest room version seen: sent as ``last_version`` once known. A bot
    account's seat is joined with its ``bot_token`` alone (no seat token nor key: the bot's
    token is the only way to its seat, docs/protocol.md "Bots")."""

    role: str = "player"
    name: str | None = None
    token: str | None = None
    join_key: str | None = None
    player: dict[str, str] | None = None
    bot_token: str | None = None
    version: int | None = None
    mark: str | None = None
    extra: Message = field(default_factory=dict)
    """More fields of every ``join`` (``protocol``, a bot's credentials...)."""

    def __post_init__(self) -> None:
        if self.role not in ("player", "spectator"):
            raise ValueError(f"a seat's role is 'player' or 'spectator', not {self.role!r}")
        if self.bot_token is not None:
            if self.role != "player" or self.token or self.join_key or self.player:
                raise ValueError("a bot's seat is joined with its bot_token alone")
        elif self.role == "player" and self.token is None and self.join_key is None:
            self.join_key = secrets.token_urlsafe(16)

    def __repr__(self) -> str:  # never print a token, a key or a secret
        return f"Seat(role={self.role!r}, name={self.name!r}, mark={self.mark!r})"

    def join_message(self) -> Message:
        """The ``join`` for the next connection."""
        join: Message = {"type": "join", "as": self.role, **self.extra}
        if self.name:
            join["name"] = self.name
        if self.bot_token is not None:
            join["bot_token"] = self.bot_token
        elif self.token is not None:
            join["token"] = self.token
        elif self.join_key is not None:
            join["join_key"] = self.join_key
            if self.player is not None:  # a resume ignores it: only a seat-taking join links
                join["player"] = self.player
        if self.version is not None:
            join["last_version"] = self.version
        return join

    def welcomed(self, welcome: Message) -> None:
        """Take a ``welcome`` in: its token (the key is forgotten), mark and version."""
        token = welcome.get("token")
        if token:
            self.token, self.join_key = str(token), None
        self.mark = welcome.get("mark")
        self.saw(welcome)

    def saw(self, message: Message) -> None:
        """Note the room version of an event, a ``welcome`` or a ``state`` (a ``move_ok`` may
        come before its event: its version is not yet seen)."""
        version = message.get("version")
        if is_room_version(message) and isinstance(version, int):
            self.version = version if self.version is None else max(self.version, version)


def is_room_version(message: Message) -> bool:
    """``message`` brings the room to its ``version``: an event, a ``welcome``, a ``state``."""
    version = message.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        return False
    kind = message.get("type")
    return kind in ("welcome", "state") or kind not in REPLY_TYPES


def new_move_id() -> str:
    return secrets.token_hex(8)


def move_message(
    move_id: str, version: int, row: int | None, col: int, layer: int | None = None
) -> Message:
    """A ``move`` (``row`` None with gravity, ``layer`` only in 3D)."""
    message: Message = {"type": "move", "col": col, "version": version, "move_id": move_id}
    if row is not None:
        message["row"] = row
    if layer is not None:
        message["layer"] = layer
    return message


def is_answer_to(message: Message, ref: str) -> bool:
    """``message`` answers the command ``ref`` names: a ``move_ok`` of that ``move_id``, or an
    ``error``, ``ack``, ``pong`` or ``state`` with that ``ref``."""
    if message.get("type") == "move_ok":
        return message.get("move_id") == ref
    return message.get("ref") == ref and message.get("type") in REPLY_TYPES


def retry_pause(answer: Message, rng: random.Random | None = None) -> float:
    """Seconds to wait before sending a refused message again: the ``retry_after`` the server
    named (an overloaded worker's), spread over up to as much again so that the clients it
    refused together do not all come back together; else a short pause. A client that
    retried sooner would keep the worker as late as it was."""
    draw = (rng or random).random()
    after = answer.get("retry_after")
    if isinstance(after, int | float) and not isinstance(after, bool) and after > 0:
        return float(after) * (1.0 + draw)
    return 0.1 + 0.2 * draw
