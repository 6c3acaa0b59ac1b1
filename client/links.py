"""Where a room or a tournament is, from the links people share.

``RoomLink.parse`` takes ``http://host:port/r/ID`` (``/watch``), ``ws://host:port/ws/ID``
(``/watch``) or a bare server ``http://host:port`` (no room yet: one may be created);
``TournamentLink.parse`` takes ``http://host:port/t/ID``. Both answer the URLs of the
protocol (docs/protocol.md): the page, the sockets, the API paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from .wire import room_socket_url

__all__ = ["RoomLink", "TournamentLink"]

_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}


@dataclass(frozen=True, slots=True)
class RoomLink:
    """A room on a server (``room_id`` None: the server alone); ``watch``: the link asks to
    watch (its spectators' path)."""

    http_base: str
    room_id: str | None
    watch: bool = False

    @classmethod
    def parse(cls, url: str) -> RoomLink:
        """The room ``url`` links to; ValueError naming the expected forms otherwise."""
        parts = urlsplit(url.strip())
        scheme = _SCHEMES.get(parts.scheme)
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

    def _room(self) -> str:
        if self.room_id is None:
            raise ValueError(f"{self.http_base} names no room (create one first)")
        return self.room_id

    @property
    def play_url(self) -> str:
        return f"{self.http_base}/r/{self._room()}"

    @property
    def ws_url(self) -> str:
        return room_socket_url(self.http_base, self._room())

    @property
    def watch_ws_url(self) -> str:
        """The spectators' path, which a balancer may spread (docs/protocol.md)."""
        return room_socket_url(self.http_base, self._room(), watch=True)


@dataclass(frozen=True, slots=True)
class TournamentLink:
    """A tournament on a server."""

    http_base: str
    tournament_id: str

    @classmethod
    def parse(cls, url: str) -> TournamentLink | None:
        """The tournament ``url`` links to; None when it is no tournament's link (a room's, a
        server's, or no link at all: RoomLink says what is wrong with it)."""
        parts = urlsplit(url.strip())
        scheme = _SCHEMES.get(parts.scheme)
        segments = [s for s in parts.path.split("/") if s]
        if scheme is None or not parts.netloc or len(segments) != 2 or segments[0] != "t":
            return None
        return cls(f"{scheme}://{parts.netloc}", segments[1])

    @property
    def page_url(self) -> str:
        return f"{self.http_base}/t/{quote(self.tournament_id, safe='')}"

    @property
    def api_path(self) -> str:
        return f"/api/tournaments/{quote(self.tournament_id, safe='')}"

    def ws_url(self, player_id: str) -> str:
        """The tournament socket, following it as ``player_id``."""
        return (
            "ws"
            + self.http_base.removeprefix("http")
            + f"/ws/t/{quote(self.tournament_id, safe='')}?player={quote(player_id, safe='')}"
        )
