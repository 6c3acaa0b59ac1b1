"""Following a tournament: entering it over HTTP, and its live socket.

``TournamentFeed`` follows ``/ws/t/{id}?player=ID`` (docs/protocol.md, "The tournament
socket"), which sends the whole view on connect and on every change: ``next_view`` answers
the newest view not older than the last one, and a dropped socket is opened again after a
pause that doubles up to ``MAX_DELAY`` seconds, ``ATTEMPTS`` times in a row at most. A new
connection's first message is the whole view, so nothing is missed while the socket is
closed (``close`` it while a game is played: nobody reads it then). A view's ``your_game``
names the room of this player's game, when there is one (a client.room.RoomClient plays it).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidURI
from websockets.sync.client import ClientConnection, connect

from .errors import Disconnected, Refused
from .http import get_json, post_json
from .links import TournamentLink

__all__ = ["ATTEMPTS", "MAX_DELAY", "TournamentFeed", "enter"]

ATTEMPTS = 10
"""Failed connections in a row before the feed gives up (about half a minute)."""
MAX_DELAY = 5.0
_NOT_FOUND = 4004  # the socket's close code for an unknown tournament


def enter(link: TournamentLink, player: dict[str, str]) -> tuple[dict[str, Any], bool]:
    """The tournament's view for ``player`` (``{"id", "secret"}``), entered into it when not
    an entrant yet; and whether it entered now. An entrant (even of a tournament under way)
    just follows; Refused with the server's code otherwise (``not_found``,
    ``tournament_full``, ``tournament_closed``, ``bad_identity``...)."""
    view = get_json(link.http_base, f"{link.api_path}?player={quote(player['id'], safe='')}")
    if any(e["id"] == player["id"] for e in view["entrants"]):
        return view, False
    return post_json(link.http_base, f"{link.api_path}/join", {"player": player}), True


class TournamentFeed:
    def __init__(
        self,
        link: TournamentLink,
        player_id: str,
        *,
        notify: Callable[[str], None] = lambda line: None,
        attempts: int = ATTEMPTS,
        max_delay: float = MAX_DELAY,
    ) -> None:
        self.link = link
        self.player_id = player_id
        self.notify = notify
        self.attempts = attempts
        self.max_delay = max_delay
        self.version = -1
        self.reconnects = 0
        self._ws: ClientConnection | None = None
        self._connection = contextlib.ExitStack()  # closes the socket, whatever happened
        self._dropped = False

    def next_view(self) -> dict[str, Any]:
        """The next view (the newest available, never older than the last one answered);
        opens the socket when closed. Refused ``not_found`` for an unknown tournament,
        Disconnected when ``attempts`` connections in a row failed."""
        failures = 0
        while True:
            try:
                view = self._receive()
            except Disconnected as exc:
                failures += 1
                if failures >= self.attempts:
                    raise Disconnected(f"lost the tournament's live updates: {exc}") from None
                if failures == 1:
                    self.notify("Lost the tournament's live updates; reconnecting...")
                time.sleep(min(0.25 * 2 ** (failures - 1), self.max_delay))
                continue
            if view is None:
                continue
            if self._dropped:
                self._dropped = False
                self.reconnects += 1
                self.notify("Reconnected.")
            if view["version"] >= self.version:
                self.version = view["version"]
                return view

    def _receive(self) -> dict[str, Any] | None:
        """The newest view arrived (waiting a second at most: a Ctrl-C is heard), or None."""
        ws = self._ws if self._ws is not None else self._open()
        try:
            message = json.loads(ws.recv(timeout=1.0))
            with contextlib.suppress(TimeoutError):
                while True:  # views are whole: only the newest arrived matters
                    message = json.loads(ws.recv(timeout=0))
        except TimeoutError:
            return None
        except ConnectionClosed as closed:
            self.close()
            self._dropped = True
            code = closed.rcvd.code if closed.rcvd is not None else None
            if code == _NOT_FOUND:
                raise Refused("not_found", f"no tournament {self.link.tournament_id!r}") from None
            raise Disconnected(f"the server closed the connection ({code})") from None
        if message.get("type") != "tournament":
            return None  # an error is followed by its close, handled above
        view: dict[str, Any] = message
        return view

    def _open(self) -> ClientConnection:
        url = self.link.ws_url(self.player_id)
        try:
            opened = connect(url, proxy=None, open_timeout=10, compression=None)
            self._ws = self._connection.enter_context(opened)
        except (OSError, InvalidStatus, InvalidURI, TimeoutError) as exc:
            self._dropped = True
            raise Disconnected(f"cannot connect to {url}: {exc}") from None
        return self._ws

    def close(self) -> None:
        """Close the socket (the next ``next_view`` opens it again)."""
        self._ws = None
        self._connection.close()
