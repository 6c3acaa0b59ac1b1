"""One bench game over real WebSockets and the real protocol, and the pieces a series uses.

A game: ``POST /api/rooms``; X then O join as players, then S spectators; once every ``welcome``
is in, X plays. Each player answers the opponent's ``moved`` with its next scripted move after
the think time; the game ends when every connection saw the last ``moved`` and each player has
its ``move_ok``s. Latency is taken where a ``moved`` arrives, against its move's send time (one
process, one clock). A move's index is the count of ``moved`` a connection received before it
(in order, each once), so the same client drives the server and the bare relay, whose events
carry less. (bench.load.series plays game after game with ``rematch``; bench.load.crowd spreads
spectators over processes.)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from time import perf_counter
from types import TracebackType
from typing import Any, TypeVar

import orjson
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake, WebSocketException

from client.aio import open_joined

from .http import HttpError, HttpPool
from .recorder import Recorder
from .schedule import Clock, Lane
from .scripts import Script
from .think import Think

__all__ = [
    "JOINING",
    "GameFailed",
    "Round",
    "close",
    "counting_errors",
    "gated",
    "join",
    "message",
    "play_game",
    "seat",
    "spectate",
    "together",
]

T = TypeVar("T")

JOINING = 50
"""Spectators of one game joining at once. The gate keeps the bench's figures comparable
across versions; a crowd arriving all at once is what ``python -m bench.flash_crowd``
measures."""


class GameFailed(Exception):
    """The game went wrong in a way the bench counts as an error (``kind`` names it)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass(slots=True)
class Round:
    """One scripted game being played: its moves' send times, shared by its connections.

    ``sends`` (crowd mode) also gets each move sent inside the window under
    ``(room, number, ply)``, for spectators in other processes to be joined with. On a
    ``lane`` (open loop) each move waits for its due time instead of a think time, on the
    game's clock, which starts with its first move (after the joins, or the rematch)."""

    script: Script
    recorder: Recorder
    think: Think
    sent_at: list[float] = field(default_factory=list)
    sends: dict[tuple[str, int, int], float] | None = None
    room: str = ""
    number: int = 0
    lane: Lane | None = None
    clock: Clock | None = None

    def done(self) -> None:
        """The game is over (or failed): its moves are no longer owed."""
        if self.clock is not None:
            self.clock.done()

    async def send(self, ws: ClientConnection, ply: int, version: int) -> None:
        if self.lane is not None:
            if self.clock is None:  # the first move: the game begins now
                self.clock = self.lane.begin(len(self.script))
            await self.clock.wait(ply)
        else:
            pause = self.think.pause()
            if pause > 0:
                await asyncio.sleep(pause)
        now = perf_counter()
        self.sent_at.append(now)
        if self.sends is not None and self.recorder.inside(now):
            self.sends[(self.room, self.number, ply)] = now
        await ws.send(self.script.text(ply, version))


def message(text: str | bytes) -> dict[str, Any]:
    """An event as a dict. Parsed with orjson, faster than ``json``: each crowd process
    parses every frame of its hundreds of spectators, on the cores the server uses too."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise GameFailed("not_json") from None
    if not isinstance(data, dict):
        raise GameFailed("not_an_object")
    return data


def _check_moved(game: Round, event: dict[str, Any], ply: int) -> None:
    if event.get("col") != game.script.cols[ply]:
        raise GameFailed("moved_out_of_order")
    # The relay sends no status (it has no game logic); the server must end the game.
    if ply + 1 == len(game.script) and event.get("status") not in (None, "finished"):
        raise GameFailed("last_move_did_not_finish")


async def seat(ws: ClientConnection, game: Round, index: int, version: int) -> int:
    """Player ``index`` (0 for X, 1 for O): move on its turns, until the end; the version
    of the last ``moved`` (what the game ended at)."""
    script, recorder, sent_at = game.script, game.recorder, game.sent_at
    total = len(script)
    mine = (total + 1 - index) // 2  # X plays plies 0, 2, 4...; O plays 1, 3, 5...
    seen = acked = 0
    if index == 0:
        await game.send(ws, 0, version)
    async for text in ws:
        event = message(text)
        kind = event.get("type")
        if kind == "moved":
            now = perf_counter()
            _check_moved(game, event, seen)
            if seen % 2 != index and recorder.inside(sent_at[seen]):
                recorder.opponent.append(now - sent_at[seen])
            seen += 1
            version = event["version"]
            if seen < total and seen % 2 == index:
                await game.send(ws, seen, version)
        elif kind == "move_ok":
            acked += 1
            recorder.acked(sent_at[int(str(event.get("move_id", "m0"))[1:])])
        elif kind == "error":
            raise GameFailed(f"error:{event.get('code')}")
        if seen == total and acked == mine:
            return version
    raise GameFailed("closed_by_server")


async def spectate(ws: ClientConnection, game: Round) -> None:
    script, recorder, sent_at = game.script, game.recorder, game.sent_at
    seen = 0
    async for text in ws:
        event = message(text)
        kind = event.get("type")
        if kind == "moved":
            now = perf_counter()
            _check_moved(game, event, seen)
            if recorder.inside(sent_at[seen]):
                recorder.spectator.append(now - sent_at[seen])
            seen += 1
            if seen == len(script):
                return
        elif kind == "error":
            raise GameFailed(f"error:{event.get('code')}")
    raise GameFailed("closed_by_server")


async def join(url: str, role: str, recorder: Recorder, opened: list[ClientConnection]) -> int:
    """Open a connection to the room, join as ``role`` (the client library's bare joined
    socket: the game's moves then run on it directly); the version of its ``welcome``."""
    name = "bench" if role == "spectator" else f"bench-{len(opened) + 1}"
    # max_queue=None: keep reading whatever arrives before this connection's reader starts
    # (with 1,000 spectators every join is an event to all); a client that stopped reading
    # would be dropped by the server as too slow (4009), as it should be.
    ws, welcome = await open_joined(
        url,
        {"type": "join", "as": role, "name": name},
        compression=None,
        ping_interval=None,
        close_timeout=2,
        max_queue=None,
    )
    opened.append(ws)
    recorder.opened_one()
    if welcome.get("type") != "welcome":
        raise GameFailed(f"join:{welcome.get('code', welcome.get('type'))}")
    return int(welcome.get("version", 0))


async def gated(gate: asyncio.Semaphore, start: Callable[[], Awaitable[T]]) -> T:
    """``start()`` once the gate lets it (a coroutine made only then is never left
    un-awaited when the game is cancelled while it waits)."""
    async with gate:
        return await start()


async def together(*tasks: Awaitable[T]) -> list[T]:
    """Run side by side; the first failure cancels the rest and is raised."""
    running = [asyncio.ensure_future(task) for task in tasks]
    try:
        return list(await asyncio.gather(*running))
    finally:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)


async def close(ws: ClientConnection, recorder: Recorder) -> None:
    with contextlib.suppress(WebSocketException, OSError):
        await ws.close()
    recorder.closed_one()


class counting_errors:  # a lower-case name: used as ``with counting_errors(recorder):``
    """What goes wrong inside is counted in ``recorder`` by kind, never raised (a class, not
    ``@contextmanager``, so that type checkers know it swallows)."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool:
        if exc is None or not isinstance(exc, Exception):
            return False
        if isinstance(exc, TimeoutError):
            self.recorder.error("timeout")
        elif isinstance(exc, GameFailed):
            self.recorder.error(exc.kind)
        elif isinstance(exc, HttpError):
            self.recorder.error("http")
        elif isinstance(exc, InvalidHandshake):
            self.recorder.error("handshake")
        elif isinstance(exc, ConnectionClosed):  # the close code says why (4009: too slow)
            self.recorder.error(f"closed:{exc.rcvd.code}" if exc.rcvd else type(exc).__name__)
        elif isinstance(exc, WebSocketException | OSError):
            self.recorder.error(type(exc).__name__)
        else:
            return False
        return True


async def join_all(
    url: str, spectators: int, recorder: Recorder, opened: list[ClientConnection]
) -> list[int]:
    """Two players (X, then O) on the room's socket ``url`` and ``spectators`` on its
    spectators' path (``JOINING`` at a time); the versions of their welcomes, the players'
    first."""
    versions = [await join(url, "player", recorder, opened) for _ in range(2)]
    gate = asyncio.Semaphore(JOINING)
    watch = f"{url}/watch"
    joins = [
        gated(gate, lambda: join(watch, "spectator", recorder, opened)) for _ in range(spectators)
    ]
    return versions + await together(*joins)


async def play_game(
    ws_base: str,
    http: HttpPool,
    rules: dict[str, Any],
    script: Script,
    *,
    spectators: int,
    think: Think,
    recorder: Recorder,
    timeout: float,
    ready: Callable[[], Awaitable[object]] | None = None,
    finished: Callable[[], Awaitable[object]] | None = None,
    lane: Lane | None = None,
) -> None:
    """Play ``script`` in a new room; errors are counted in ``recorder``, never raised.

    ``ready`` is awaited once everyone joined, before the first move, and ``finished``
    after the last message, before the connections close: a probe counts what the server
    does for the moves alone between the two. ``lane``: open loop (bench.load.schedule)."""
    opened: list[ClientConnection] = []
    game: Round | None = None
    try:
        with counting_errors(recorder):
            async with asyncio.timeout(timeout):
                room_id = await http.create_room(rules)
                versions = await join_all(f"{ws_base}/ws/{room_id}", spectators, recorder, opened)
                players, watchers = opened[:2], opened[2:]
                start = max(versions)  # the last welcome includes every join: never stale
                if ready is not None:
                    await ready()
                game = Round(script, recorder, think, lane=lane)
                await together(
                    *(seat(ws, game, index, start) for index, ws in enumerate(players)),
                    *(spectate(ws, game) for ws in watchers),
                )
                if finished is not None:
                    await finished()
            recorder.games += 1
    finally:
        if game is not None:
            game.done()
        await asyncio.gather(*(close(ws, recorder) for ws in opened))
