"""The bare relay: the stack's limit, to which every server figure is compared.

The same stack as the server (Starlette on uvicorn with the same options, the same Redis
pub/sub: one ``PUBLISH`` per move, one ``SUBSCRIBE`` per room and worker, or an in-process
fan-out) but no validation, room state or game logic. It speaks just enough of docs/protocol.md
(``POST /api/rooms``, ``join``/``welcome``, ``move``, ``rematch``) for the load generator to
drive it as it drives the server: a ``move`` becomes a ``moved`` at the next version for the
whole room and a ``move_ok`` for the mover; rematch votes are counted (a pipelined ``INCR`` in
Redis, as the players may be on two workers), the first published as ``rematch_offered``, the
second as ``new_game`` with the marks swapped. Nothing is checked.

During play it publishes the server's events with the same fields (nulls where only game logic
could know), so events cost about what the server's do; only a game's last ``moved``, the
``welcome`` and presence events stay smaller or absent, as they need room state. Each connection
keeps a bounded queue and a writer task, the least a correct relay does so that a slow client
slows only itself.

    python -m bench.load.relay [--port P] [--redis-url URL] [--workers N]
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import secrets
import sys
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import redis.asyncio as aioredis
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .standalone import serve_standalone

__all__ = ["create_relay", "main"]

ENV_REDIS = "BENCH_RELAY_REDIS_URL"  # how the parent hands the URL to uvicorn's workers
QUEUE = 256  # per connection, as the server's default send queue
POOL = 64  # Redis connections for PUBLISH per worker (calls beyond wait for one)


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class _Peer:
    """One connection's outgoing side: a bounded queue drained by a writer task."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[str] = asyncio.Queue(QUEUE)
        self.writer = asyncio.create_task(self._write())

    def put(self, text: str) -> None:
        with contextlib.suppress(asyncio.QueueFull):  # too slow: it misses events
            self.queue.put_nowait(text)

    async def _write(self) -> None:
        with contextlib.suppress(WebSocketDisconnect, OSError, RuntimeError):
            while True:
                await self.websocket.send_text(await self.queue.get())

    async def close(self) -> None:
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.writer


class Relay:
    def __init__(self, redis_url: str | None) -> None:
        self.redis_url = redis_url
        self.rooms: dict[str, set[_Peer]] = {}
        self._confirmed: dict[str, asyncio.Future[None]] = {}
        self._votes: dict[str, int] = {}  # rematch votes per room, without Redis
        self._client: aioredis.Redis | None = None
        self._sub: aioredis.Connection | None = None
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        if self.redis_url is None:
            return
        # RESP2, as the server's bus: pub/sub messages then arrive as plain replies (RESP3
        # would hand them to a push handler instead of read_response). A blocking pool:
        # redis-py's default pool refuses the 101st concurrent call (MaxConnectionsError)
        # where a relay under load should wait for a free connection.
        pool = aioredis.BlockingConnectionPool.from_url(
            self.redis_url, max_connections=POOL, timeout=10, decode_responses=True, protocol=2
        )
        self._client = aioredis.Redis(connection_pool=pool)
        connection = pool.make_connection()  # type: ignore[no-untyped-call]  # unannotated upstream
        assert isinstance(connection, aioredis.Connection)
        await connection.connect()  # type: ignore[no-untyped-call]  # unannotated upstream
        self._sub = connection
        self._reader = asyncio.create_task(self._read(connection))

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self._sub is not None:
            await self._sub.disconnect()
        if self._client is not None:
            await self._client.aclose()

    async def _read(self, connection: aioredis.Connection) -> None:
        while True:
            # math.inf: block until a message comes; redis-py applies its default socket
            # timeout otherwise, and a relay idle for a few seconds would lose its reader.
            reply = await connection.read_response(timeout=math.inf)
            kind, channel, data = reply[0], reply[1], reply[2]
            if kind == "message":
                self._fan_out(channel, data)
            elif kind == "subscribe":
                confirmed = self._confirmed.pop(channel, None)
                if confirmed is not None and not confirmed.done():
                    confirmed.set_result(None)

    def _fan_out(self, room_id: str, text: str) -> None:
        for peer in self.rooms.get(room_id, ()):
            peer.put(text)

    async def attach(self, room_id: str, peer: _Peer) -> None:
        """Subscribe first (confirmed by Redis), as the server does, then the welcome."""
        peers = self.rooms.get(room_id)
        if peers is not None:
            peers.add(peer)
            waiting = self._confirmed.get(room_id)
            if waiting is not None:
                await asyncio.shield(waiting)
            return
        self.rooms[room_id] = {peer}
        if self._sub is not None:
            confirmed = self._confirmed[room_id] = asyncio.get_running_loop().create_future()
            await self._sub.send_command("SUBSCRIBE", room_id, check_health=False)
            await asyncio.wait_for(asyncio.shield(confirmed), 10)

    async def detach(self, room_id: str, peer: _Peer) -> None:
        peers = self.rooms.get(room_id)
        if peers is None:
            return
        peers.discard(peer)
        if not peers:
            del self.rooms[room_id]
            self._votes.pop(room_id, None)
            if self._sub is not None:
                await self._sub.send_command("UNSUBSCRIBE", room_id, check_health=False)

    async def vote(self, room_id: str) -> bool:
        """Count a rematch vote; True when it completes a pair (the room's next game)."""
        if self._client is None:
            votes = self._votes[room_id] = self._votes.get(room_id, 0) + 1
        else:
            key = f"bench-relay:votes:{room_id}"
            async with self._client.pipeline(transaction=False) as pipe:
                pipe.incr(key)
                pipe.expire(key, 3600)
                votes, _ = await pipe.execute()
        return int(votes) % 2 == 0

    async def publish(self, room_id: str, text: str) -> None:
        if self._client is None:
            self._fan_out(room_id, text)
        else:
            await self._client.publish(room_id, text)


async def _create_room(request: Request) -> Response:
    await request.body()
    room_id = secrets.token_hex(8)
    return JSONResponse({"room_id": room_id, "version": 0}, status_code=201)


async def _healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def _stats(request: Request) -> Response:
    """Which worker answered (the bench waits until every worker does); no counters."""
    return JSONResponse({"pid": os.getpid(), "encodes": {}, "conflicts": 0})


_OFFERS: dict[str, Any] = {"draw": None, "takeback": None, "rematch": []}
_PLAYER: dict[str, Any] = {
    "mark": None,
    "name": None,
    "connected": True,
    "bot": None,
    "away_since": None,
    "left": False,
    "claimable_at": None,
    "wins": 0,
    "draws": 0,
    "player_id": None,
    "bot_account": False,
}
"""A seat as the server's ``new_game`` lists it, with nothing the relay could know."""


def _moved(move: dict[str, Any]) -> dict[str, Any]:
    """A ``moved`` with the same fields as the server's, filled from the move alone."""
    version = int(move.get("version", 0)) + 1
    return {
        "type": "moved",
        "version": version,
        "mark": None,
        "row": move.get("row"),
        "col": move.get("col"),
        "layer": move.get("layer", 0),
        "ply": version,
        "turn": None,
        "status": None,
        "outcome": None,  # no game logic: it cannot know
        "at": time.time(),
        "clock": None,
        "offers": _OFFERS,
        "due": None,
    }


def _rematch_offered(vote: dict[str, Any]) -> dict[str, Any]:
    """The first vote of a pair, as the server publishes it to the room."""
    return {
        "type": "rematch_offered",
        "version": int(vote.get("version", 0)) + 1,
        "by": None,
        "clock": None,
        "offers": _OFFERS,
        "due": None,
    }


def _new_game(vote: dict[str, Any]) -> dict[str, Any]:
    """A ``new_game`` after the (second) vote's ``rematch_offered``, the marks swapped."""
    return {
        "type": "new_game",
        "version": int(vote.get("version", 0)) + 2,
        "game_number": None,
        "marks": {"X": "O", "O": "X"},
        "players": [_PLAYER, _PLAYER],
        "board": None,
        "ply": 0,
        "turn": "X",
        "status": None,
        "started_at": time.time(),
        "clock": None,
        "offers": _OFFERS,
        "due": None,
    }


async def _socket(websocket: WebSocket) -> None:
    relay: Relay = websocket.app.state.relay
    room_id = websocket.path_params["room_id"]
    await websocket.accept()
    peer = _Peer(websocket)
    attached = False
    try:
        join = json.loads(await websocket.receive_text())
        await relay.attach(room_id, peer)
        attached = True
        role = join.get("as") if isinstance(join, dict) else None
        peer.put(
            _dumps(
                {
                    "type": "welcome",
                    "protocol": 1,
                    "room_id": room_id,
                    "role": role,
                    "mark": None,
                    "token": None,
                    "version": 0,
                    "state": {"version": 0},
                    "missed": None,
                }
            )
        )
        while True:
            move = json.loads(await websocket.receive_text())
            if not isinstance(move, dict):
                continue
            if move.get("type") == "rematch":
                peer.put(_dumps({"type": "ack", "ref": move.get("id"), "version": None}))
                second = await relay.vote(room_id)
                event = _new_game(move) if second else _rematch_offered(move)
                await relay.publish(room_id, _dumps(event))
                continue
            if move.get("type") != "move":
                continue
            moved = _moved(move)
            peer.put(
                _dumps(
                    {
                        "type": "move_ok",
                        "move_id": move.get("move_id"),
                        "version": moved["version"],
                        "duplicate": False,
                    }
                )
            )
            await relay.publish(room_id, _dumps(moved))
    except (WebSocketDisconnect, ValueError):
        pass
    finally:
        if attached:
            await relay.detach(room_id, peer)
        await peer.close()


def create_relay(redis_url: str | None = None) -> Starlette:
    """The relay app (``redis_url`` None: from ``BENCH_RELAY_REDIS_URL``, else in-process)."""
    relay = Relay(redis_url or os.environ.get(ENV_REDIS) or None)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await relay.open()
        try:
            yield
        finally:
            await relay.close()

    app = Starlette(
        routes=[
            Route("/api/rooms", _create_room, methods=["POST"]),
            Route("/healthz", _healthz, methods=["GET"]),
            Route("/api/stats", _stats, methods=["GET"]),
            WebSocketRoute("/ws/{room_id}", _socket),
            WebSocketRoute("/ws/{room_id}/watch", _socket),  # the spectators' path: the same
        ],
        lifespan=lifespan,
    )
    app.state.relay = relay
    return app


def main(argv: Sequence[str] | None = None) -> int:
    return serve_standalone(
        argv,
        prog="python -m bench.load.relay",
        description=__doc__,
        port=8001,
        create=create_relay,
        factory="bench.load.relay:create_relay",
        env_redis=ENV_REDIS,
    )


if __name__ == "__main__":
    sys.exit(main())
