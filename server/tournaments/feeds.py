"""What the tournament sockets (``server.tournaments.socket``) send: the live state, followed.

The store is the truth: one watcher per tournament on this worker reads its record every
``POLL`` seconds (and hears this worker's own commits at once), and every socket following it
sends the newest version it has not sent yet. A slow socket skips versions instead of queueing
them, so it slows only itself. ``?player=ID`` names the entrant whose ``your_game`` the
messages carry (the room of their game under way, public anyway in the schedule), so a page
moves its player to each game by itself. A client's ``ping`` is answered with ``pong`` and
holds the socket to its heartbeat as on a room's socket (server.ws.heartbeat); anything else
it sends is read and ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from rooms import RoomError
from rooms.protocol import PingMessage, dumps, parse_message, pong_message
from rooms.tournaments import TournamentRecord, TournamentService
from rooms.tournaments.views import view

from ..fastpath.probe import probe
from ..ws.heartbeat import Heartbeats

__all__ = ["POLL", "TournamentFeeds"]

log = logging.getLogger("tictactoe.server")

POLL = 0.25
"""Seconds between a watcher's reads of its tournament: a result shows within a second."""


class _Feed:
    def __init__(self) -> None:
        self.record: TournamentRecord | None = None
        self.changed = asyncio.Event()
        self.followers = 0
        self.task: asyncio.Task[None] | None = None

    def offer(self, record: TournamentRecord) -> None:
        if self.record is None or record.version > self.record.version:
            self.record = record
            self.changed.set()
            self.changed = asyncio.Event()


class TournamentFeeds:
    """This worker's watchers, one per tournament with sockets following it."""

    def __init__(self, service: TournamentService, *, poll: float = POLL) -> None:
        self._service = service
        self._poll = poll
        self._feeds: dict[str, _Feed] = {}
        service.listeners.append(self._heard)

    def _heard(self, record: TournamentRecord) -> None:
        feed = self._feeds.get(record.id)
        if feed is not None:
            feed.offer(record)

    async def _watch(self, tournament_id: str, feed: _Feed) -> None:
        while True:
            try:
                record = await self._service.shelf.load(tournament_id)
                if record is not None:
                    feed.offer(record)
            except RoomError as exc:
                log.warning("tournament %s not read: %s", tournament_id, exc.message)
            await asyncio.sleep(self._poll)

    async def follow(
        self,
        websocket: WebSocket,
        record: TournamentRecord,
        viewer: str | None,
        heartbeats: Heartbeats | None = None,
    ) -> None:
        """Send ``record``, then each newer version, until the socket closes (or, holding a
        heartbeat in ``heartbeats``, goes silent)."""
        feed = self._feeds.get(record.id)
        if feed is None:
            feed = self._feeds[record.id] = _Feed()
            feed.task = asyncio.get_running_loop().create_task(self._watch(record.id, feed))
        feed.offer(record)
        feed.followers += 1
        listener = _Listener(websocket)
        receiving = asyncio.get_running_loop().create_task(listener.drain(heartbeats))
        listener.receiving = receiving
        try:
            sent = -1
            while not receiving.done():
                current = feed.record
                if current is not None and current.version > sent:
                    text = json.dumps({"type": "tournament", **view(current, viewer=viewer)})
                    await websocket.send_text(text)
                    sent = current.version
                    continue
                waiting = asyncio.get_running_loop().create_task(feed.changed.wait())
                await asyncio.wait({waiting, receiving}, return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
        finally:
            receiving.cancel()
            if heartbeats is not None:
                heartbeats.forget(listener)
            feed.followers -= 1
            if feed.followers == 0 and self._feeds.get(record.id) is feed:
                del self._feeds[record.id]
                if feed.task is not None:
                    feed.task.cancel()

    async def close(self) -> None:
        for feed in list(self._feeds.values()):
            if feed.task is not None:
                feed.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await feed.task
        self._feeds.clear()


_MAX_MESSAGE = 1024
"""Bytes of the largest message read here: a ``ping`` is a few dozen."""


class _Listener:
    """What a tournament socket's client sends: read, a ``ping`` answered (and from then on
    the socket held to its heartbeat), the rest dropped, until the client closes."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self._clock = asyncio.get_running_loop().time
        self.heard = self._clock()
        self.checked = 0.0
        self.receiving: asyncio.Task[None] | None = None

    async def drain(self, heartbeats: Heartbeats | None) -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                message = await self.websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                self.heard = self._clock()
                text = message.get("text")
                try:
                    parsed = parse_message(text, max_bytes=_MAX_MESSAGE) if text else None
                except RoomError:
                    continue  # not for this socket: ignored
                if isinstance(parsed, PingMessage):
                    if heartbeats is not None:
                        heartbeats.keep(self)
                    await self.websocket.send_text(dumps(pong_message(parsed.ref)))

    def silent(self, timeout: float) -> None:
        """Silent past its heartbeat: pinged (server.fastpath.probe), or where that cannot be
        done, let go (the follow ends and the socket closes)."""
        if not probe(self.websocket, timeout) and self.receiving is not None:
            self.receiving.cancel()
