"""A terminal client of a running server: room links, the WebSocket, and resuming.

``RoomClient`` joins a room over the protocol of docs/protocol.md with the synchronous
``websockets`` client and keeps the room's move list as the server reports it. When the
connection drops it reconnects with its seat token and the last version it saw, and a move
whose answer was lost is sent again with the same ``move_id`` (applied at most once). A
player's seat-taking join carries a join key, kept (in memory) until the token arrives: a join
whose answer was lost is sent again with it and gets the same seat, and, when the player has
a guest identity (identity_file), its ``player`` too, so the seat is linked to it.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidURI
from websockets.sync.client import ClientConnection, connect

from core import GameError, MoveRequest, Rules

__all__ = [
    "Disconnected",
    "NetError",
    "RoomClient",
    "RoomLink",
    "create_room",
    "get_json",
    "post_json",
]

_PERMANENT = {4001, 4003, 4004, 4008, 1003, 1008, 1009}  # closes a retry cannot fix


class NetError(GameError):
    """The server refused a command (the room is unchanged); ``code`` is the server's.

    A GameError, so the terminal game shows it and asks again, as for a local bad move."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Disconnected(Exception):
    """The server cannot be reached or closed the connection for good: the game stops."""


_JOIN_AGAIN = frozenset({"unavailable", "busy", "already_joined", "internal_error"})
"""A join refused with these is sent again on a new connection (with the same join key or
token): the store was away, or the join may have landed (docs/protocol.md, 1012)."""


class _AnswerLost(Disconnected):
    """The join went out and the connection ended before its answer: worth sending again."""


@dataclass(frozen=True, slots=True)
class RoomLink:
    """Where a room is: ``http://host:port/r/ID`` (``/watch``), ``ws://host:port/ws/ID``
    (``/watch``), or a bare server ``http://host:port`` (a room is then created)."""

    http_base: str
    room_id: str | None
    watch: bool = False

    @classmethod
    def parse(cls, url: str) -> RoomLink:
        parts = urlsplit(url.strip())
        scheme = {"http": "http", "https": "https", "ws": "http", "wss": "https"}.get(parts.scheme)
        if scheme is None or not parts.netloc:
            raise ValueError(f"not a server or room link: {url!r} (try http://127.0.0.1:8000)")
        segments = [s for s in parts.path.split("/") if s]
        base = f"{scheme}://{parts.netloc}"
        if not segments:
            return cls(base, None)
        if len(segments) >= 2 and segments[0] in {"r", "ws"}:
            watch = len(segments) == 3 and segments[2] == "watch"
            if len(segments) == 2 or watch:
                return cls(base, segments[1], watch)
        raise ValueError(
            f"not a room link: {url!r} (expected {base}/r/ROOM, or {base}/t/TOURNAMENT)"
        )

    @property
    def play_url(self) -> str:
        return f"{self.http_base}/r/{self.room_id}"

    @property
    def ws_url(self) -> str:
        return "ws" + self.http_base[4:] + f"/ws/{self.room_id}"

    @property
    def watch_ws_url(self) -> str:
        """The spectators' path, which a balancer may spread (docs/protocol.md)."""
        return self.ws_url + "/watch"


def post_json(http_base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON to ``http_base + path``; the JSON answer. NetError with the
    server's code when it refuses, Disconnected when it cannot be reached."""
    return _fetch_json(
        urllib.request.Request(
            f"{http_base}{path}",
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        ),
        http_base,
    )


def get_json(http_base: str, path: str) -> dict[str, Any]:
    """GET ``http_base + path``; the JSON answer (errors as ``post_json``'s)."""
    return _fetch_json(urllib.request.Request(f"{http_base}{path}"), http_base)


def _fetch_json(request: urllib.request.Request, http_base: str) -> dict[str, Any]:
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            answer: dict[str, Any] = json.loads(response.read())
            return answer
    except urllib.error.HTTPError as exc:
        try:
            error = json.loads(exc.read())
        except ValueError:
            error = {"code": "unavailable", "message": f"HTTP {exc.code}"}
        raise NetError(error.get("code", "unavailable"), error.get("message", str(exc))) from None
    except (urllib.error.URLError, OSError) as exc:
        raise Disconnected(f"cannot connect to {http_base}: {exc}") from None


def create_room(link: RoomLink, rules: Rules, *, public: bool = False) -> RoomLink:
    """POST /api/rooms; the link of the new room."""
    created = post_json(link.http_base, "/api/rooms", {"rules": rules.to_dict(), "public": public})
    return RoomLink(link.http_base, str(created["room_id"]))


class RoomClient:
    def __init__(
        self,
        link: RoomLink,
        *,
        role: str,
        name: str | None = None,
        notify: Callable[[str], None] = lambda line: None,
        retries: int = 5,
        player: dict[str, str] | None = None,
    ) -> None:
        self.link = link
        self.role = role
        self.name = name
        self.player = player  # a guest identity's {"id", "secret"}: its seat is linked to it
        self.notify = notify
        self.retries = retries
        self.mark: str | None = None
        self.rules = Rules()
        self.moves: list[dict[str, Any]] = []
        self.players: list[dict[str, Any]] = []
        self.status = "waiting"
        self.outcome: dict[str, Any] | None = None  # the server's, once the game is over
        self.version = 0
        self._token: str | None = None
        # a seat-taking join's key, until the token it wins arrives (docs/protocol.md)
        self._join_key: str | None = secrets.token_urlsafe(16) if role == "player" else None
        self._ws: ClientConnection | None = None
        self._connections = contextlib.ExitStack()
        self._replies: dict[str, dict[str, Any]] = {}
        self.reconnects = 0

    # -- connection -----------------------------------------------------------------------

    def connect(self) -> dict[str, Any]:
        """Join (or resume) the room; the welcome. NetError when refused (room_full,
        bad_token, room_not_found...), Disconnected when the server cannot be reached. A join
        whose answer was lost is sent again (up to ``retries`` times, with the same join key
        when it takes a seat)."""
        for attempt in range(self.retries):
            try:
                return self._join()
            except _AnswerLost:
                self.notify("The server did not answer the join; trying again...")
                time.sleep(min(0.2 * 2**attempt, 3.0))
        return self._join()

    @property
    def socket_url(self) -> str:
        """A player's room socket, or a spectator's path."""
        return self.link.watch_ws_url if self.role == "spectator" else self.link.ws_url

    def _join(self) -> dict[str, Any]:
        """One connection and one join; the welcome (see ``connect``)."""
        try:
            opened = connect(self.socket_url, proxy=None, open_timeout=10, compression=None)
            ws = self._connections.enter_context(opened)  # closed by close()
        except (OSError, InvalidStatus, InvalidURI, TimeoutError) as exc:
            raise Disconnected(f"cannot connect to {self.socket_url}: {exc}") from None
        join: dict[str, Any] = {"type": "join", "as": self.role, "protocol": 1}
        if self.name:
            join["name"] = self.name
        if self._token is not None:
            join.update(token=self._token, last_version=self.version)
        elif self._join_key is not None:
            join["join_key"] = self._join_key
            if self.player is not None:  # only a seat-taking join links (a resume ignores it)
                join["player"] = self.player
        try:
            ws.send(json.dumps(join))
        except ConnectionClosed as exc:
            ws.close()
            raise Disconnected(f"the server closed the connection: {exc}") from None
        while True:
            try:
                message = json.loads(ws.recv(timeout=30))
            except (ConnectionClosed, TimeoutError) as exc:
                ws.close()
                raise _AnswerLost(f"the server did not welcome us: {exc}") from None
            if message["type"] == "error":
                ws.close()
                if message["code"] in _JOIN_AGAIN:  # not now, or it may have landed
                    raise _AnswerLost(f"the join was not taken: {message['message']}")
                raise NetError(message["code"], message["message"])
            if message["type"] == "welcome":
                break
        self._ws = ws
        self.mark = message["mark"]
        self._token = message["token"] or self._token
        if self._token is not None:
            self._join_key = None  # the token resumes the seat from now on
        self._apply_state(message["state"])
        return dict(message)

    def close(self) -> None:
        self._ws = None
        self._connections.close()

    def _reconnect(self, closed: ConnectionClosed) -> None:
        code = closed.rcvd.code if closed.rcvd is not None else None
        if code in _PERMANENT:
            reason = closed.rcvd.reason if closed.rcvd is not None else ""
            raise Disconnected(f"the server closed the connection ({code} {reason})")
        self.notify("Connection lost; reconnecting...")
        for attempt in range(self.retries):
            time.sleep(min(0.2 * 2**attempt, 3.0))
            try:
                self._join()
            except Disconnected:
                continue
            self.reconnects += 1
            self.notify("Reconnected.")
            return
        raise Disconnected("lost the connection to the server and could not resume")

    # -- messages -------------------------------------------------------------------------

    def _apply_state(self, state: dict[str, Any]) -> None:
        self.rules = Rules.from_dict(state["rules"])
        self.moves = [dict(m) for m in state["moves"]]
        self.players = [dict(p) for p in state["players"]]
        self.status = state["status"]
        self.outcome = state.get("outcome")
        self.version = state["version"]

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "move_ok":
            self._replies[message["move_id"]] = message
            return
        if kind in {"error", "pong"} and message.get("ref") is not None:
            self._replies[message["ref"]] = message
            return
        if kind == "state":
            self._apply_state(message["state"])
            return
        if kind == "error":
            self.notify(f"server: {message['message']}")
            return
        version = message.get("version")
        if not isinstance(version, int) or version <= self.version:
            return
        if version > self.version + 1:  # should not happen; the snapshot repairs it
            self._send({"type": "sync"})
        self.version = version
        if kind == "moved":
            self.moves.append({k: message[k] for k in ("mark", "row", "col", "layer")})
            self.status, self.outcome = message["status"], message.get("outcome")
        elif kind == "game_over":  # ended off the board: resignation, a flag, an abort...
            self.status, self.outcome = message["status"], message.get("outcome")
        elif kind == "player_joined":
            self.players.append(message["player"])
            self.status = message["status"]
            self.notify(f"{message['player']['name']} joined as {message['player']['mark']}.")
        elif kind == "presence":
            for player in self.players:
                if player["mark"] == message["mark"]:
                    player["connected"] = message["connected"]
            state = "is back" if message["connected"] else "disconnected"
            if message["mark"] != self.mark:
                self.notify(f"{message['mark']} {state}.")

    def _send(self, message: dict[str, Any]) -> None:
        assert self._ws is not None
        with contextlib.suppress(ConnectionClosed):  # the next receive notices, reconnects
            self._ws.send(json.dumps(message))

    def _pump(self, timeout: float) -> bool:
        """Handle the next message (reconnecting if needed); False when none came in time.
        True also after a reconnect, which may have changed what is known."""
        assert self._ws is not None
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
        deadline = None if timeout is None else time.monotonic() + timeout
        while not done():
            if deadline is not None and time.monotonic() > deadline:
                raise Disconnected("the server did not answer in time")
            self._pump(1.0)

    def play(self, request: MoveRequest) -> dict[str, Any]:
        """Send a move and wait for its fate: move_ok, or NetError with the server's code.

        After a reconnect the same move (same ``move_id``) is sent again: it lands once."""
        move_id = secrets.token_hex(8)
        message: dict[str, Any] = {"type": "move", "col": request.col, "move_id": move_id}
        if request.row is not None:
            message["row"] = request.row
        if request.layer is not None:
            message["layer"] = request.layer
        while True:
            before = self.reconnects
            self._send({**message, "version": self.version})
            self.wait(lambda before=before: move_id in self._replies or self.reconnects != before)  # type: ignore[misc]
            reply = self._replies.pop(move_id, None)
            if reply is None:
                continue  # reconnected before the answer: ask again, same move_id
            if reply["type"] == "error":
                raise NetError(reply["code"], reply["message"])
            return reply
