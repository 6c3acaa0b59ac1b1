"""One bench game over real WebSockets and the real protocol, from room to last move.

A game: ``POST /api/rooms``; X and then O join as players (so X is X), then S spectators;
once every ``welcome`` is in, X plays. Each player answers the opponent's ``moved`` with
its next scripted move after the think time; the game ends when every connection has seen
the last ``moved`` and each player has its ``move_ok``s. Latencies are taken where the
``moved`` arrives, against the time its move was sent: all connections of a game live in
one process, so one clock serves both ends. A move's index in the game is the count of
``moved`` events a connection received before it (events arrive in order, each once), so
the same client drives the real server and the bare relay, whose events carry less.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, WebSocketException

from .http import HttpError, HttpPool
from .recorder import Recorder
from .scripts import Script

__all__ = ["GameFailed", "play_game"]

T = TypeVar("T")

JOINING = 50
"""Spectators of one game joining at once. A crowd arrives over time: all 1,000 at once,
each join an event to everyone already there, fill the first ones' send queues (256) faster
than their writers drain them, and the server rightly drops them as too slow (4009)."""


class GameFailed(Exception):
    """The game went wrong in a way the bench counts as an error (``kind`` names it)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass(slots=True)
class _Game:
    script: Script
    recorder: Recorder
    think: float
    sent_at: list[float] = field(default_factory=list)

    async def send(self, ws: ClientConnection, ply: int, version: int) -> None:
        if self.think > 0:
            await asyncio.sleep(self.think)
        self.sent_at.append(perf_counter())
        await ws.send(self.script.text(ply, version))


def _message(text: str | bytes) -> dict[str, Any]:
    data = json.loads(text)
    if not isinstance(data, dict):
        raise GameFailed("not_an_object")
    return data


def _check_moved(game: _Game, message: dict[str, Any], ply: int) -> None:
    if message.get("col") != game.script.cols[ply]:
        raise GameFailed("moved_out_of_order")
    # The relay sends no status (it has no game logic); the server must end the game.
    if ply + 1 == len(game.script) and message.get("status") not in (None, "finished"):
        raise GameFailed("last_move_did_not_finish")


async def _seat(ws: ClientConnection, game: _Game, index: int, version: int) -> None:
    """Player ``index`` (0 for X, 1 for O): move on its turns, until the end."""
    script, recorder, sent_at = game.script, game.recorder, game.sent_at
    total = len(script)
    mine = (total + 1 - index) // 2  # X plays plies 0, 2, 4...; O plays 1, 3, 5...
    seen = acked = 0
    if index == 0:
        await game.send(ws, 0, version)
    async for text in ws:
        message = _message(text)
        kind = message.get("type")
        if kind == "moved":
            now = perf_counter()
            _check_moved(game, message, seen)
            if seen % 2 != index and recorder.inside(sent_at[seen]):
                recorder.opponent.append(now - sent_at[seen])
            seen += 1
            version = message["version"]
            if seen < total and seen % 2 == index:
                await game.send(ws, seen, version)
        elif kind == "move_ok":
            acked += 1
            recorder.acked(sent_at[int(str(message.get("move_id", "m0"))[1:])])
        elif kind == "error":
            raise GameFailed(f"error:{message.get('code')}")
        if seen == total and acked == mine:
            return
    raise GameFailed("closed_by_server")


async def _spectator(ws: ClientConnection, game: _Game) -> None:
    script, recorder, sent_at = game.script, game.recorder, game.sent_at
    seen = 0
    async for text in ws:
        message = _message(text)
        kind = message.get("type")
        if kind == "moved":
            now = perf_counter()
            _check_moved(game, message, seen)
            if recorder.inside(sent_at[seen]):
                recorder.spectator.append(now - sent_at[seen])
            seen += 1
            if seen == len(script):
                return
        elif kind == "error":
            raise GameFailed(f"error:{message.get('code')}")
    raise GameFailed("closed_by_server")


async def _join(url: str, role: str, recorder: Recorder, opened: list[ClientConnection]) -> int:
    """Open a connection to the room, join as ``role``; the version of its ``welcome``."""
    # max_queue=None: keep reading whatever arrives before this connection's reader starts
    # (with 1,000 spectators every join is an event to all); a client that stopped reading
    # would be dropped by the server as too slow (4009), as it should be.
    ws = await connect(url, compression=None, ping_interval=None, close_timeout=2, proxy=None,
                       max_queue=None)
    opened.append(ws)
    recorder.opened_one()
    name = "bench" if role == "spectator" else f"bench-{len(opened)}"
    await ws.send(json.dumps({"type": "join", "as": role, "name": name}))
    welcome = _message(await ws.recv())
    if welcome.get("type") != "welcome":
        raise GameFailed(f"join:{welcome.get('code', welcome.get('type'))}")
    return int(welcome.get("version", 0))


async def _gated(gate: asyncio.Semaphore, start: Callable[[], Awaitable[T]]) -> T:
    """``start()`` once the gate lets it (a coroutine made only then is never left
    un-awaited when the game is cancelled while it waits)."""
    async with gate:
        return await start()


async def _all(*tasks: Awaitable[T]) -> list[T]:
    """Run side by side; the first failure cancels the rest and is raised."""
    running = [asyncio.ensure_future(task) for task in tasks]
    try:
        return list(await asyncio.gather(*running))
    finally:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)


async def _close(ws: ClientConnection, recorder: Recorder) -> None:
    with contextlib.suppress(WebSocketException, OSError):
        await ws.close()
    recorder.closed_one()


async def play_game(
    ws_base: str,
    http: HttpPool,
    rules: dict[str, Any],
    script: Script,
    *,
    spectators: int,
    think: float,
    recorder: Recorder,
    timeout: float,
    ready: Callable[[], Awaitable[object]] | None = None,
    finished: Callable[[], Awaitable[object]] | None = None,
) -> None:
    """Play ``script`` in a new room; errors are counted in ``recorder``, never raised.

    ``ready`` is awaited once everyone joined, before the first move, and ``finished``
    after the last message, before the connections close: a probe counts what the server
    does for the moves alone between the two."""
    opened: list[ClientConnection] = []
    try:
        async with asyncio.timeout(timeout):
            room_id = await http.create_room(rules)
            url = f"{ws_base}/ws/{room_id}"
            versions = [await _join(url, "player", recorder, opened) for _ in range(2)]
            gate = asyncio.Semaphore(JOINING)
            joins = [_gated(gate, lambda: _join(url, "spectator", recorder, opened))
                     for _ in range(spectators)]
            versions += await _all(*joins)
            game = _Game(script, recorder, think)
            players, watchers = opened[:2], opened[2:]
            start = max(versions)  # the last welcome includes every join: never stale
            if ready is not None:
                await ready()
            await _all(
                *(_seat(ws, game, index, start) for index, ws in enumerate(players)),
                *(_spectator(ws, game) for ws in watchers),
            )
            if finished is not None:
                await finished()
        recorder.games += 1
    except TimeoutError:
        recorder.error("timeout")
    except GameFailed as exc:
        recorder.error(exc.kind)
    except HttpError:
        recorder.error("http")
    except InvalidHandshake:
        recorder.error("handshake")
    except ConnectionClosed as exc:  # the close code says why (4009: too slow, ...)
        recorder.error(f"closed:{exc.rcvd.code}" if exc.rcvd else type(exc).__name__)
    except (WebSocketException, OSError) as exc:
        recorder.error(type(exc).__name__)
    finally:
        await asyncio.gather(*(_close(ws, recorder) for ws in opened))
