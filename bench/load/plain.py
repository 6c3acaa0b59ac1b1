"""A plain Starlette game server: what the server's figures mean to a Python developer.

The straightforward way to write this server with Starlette, written so, for the bench to
compare against: rooms validated by the same engine (``core.Game``), a version per room, a
``move`` checked against it, the state kept in a dict (one process) or in Redis with
redis-py's optimistic transaction (``WATCH``, ``GET``, ``MULTI``, ``SET``, ``PUBLISH``,
``EXEC``, retried on a conflict) and spread to every worker with redis-py's ``PubSub``;
Starlette's ``receive_json``/``send_json``, one ``await`` per socket. None of the server's
speed machinery (no cached rooms, no Lua, no pre-built frames), none of its duties either
(tokens, resume, presence, deadlines, clocks). It speaks what the load generator uses of
docs/protocol.md: ``POST /api/rooms``, ``join``/``welcome``, ``move``/``move_ok``/``moved``,
``rematch``/``rematch_offered``/``new_game``; the players are X and O in the order they
join, as the generator seats them.

    python -m bench.load.plain [--port P] [--redis-url URL] [--workers N]
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import sys
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import WatchError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from core import Game, GameError, Rules, decode, encode

from .standalone import serve_standalone

__all__ = ["create_plain", "main"]

ENV_REDIS = "BENCH_PLAIN_REDIS_URL"  # how the parent hands the URL to uvicorn's workers
TTL = 3600


class StaleVersion(GameError):
    code = "stale_version"


class RoomFull(GameError):
    code = "room_full"


class Rooms:
    """Room state by id: a dict, or JSON in Redis with a channel per room."""

    def __init__(self, redis_url: str | None) -> None:
        self.redis_url = redis_url
        self.local: dict[str, dict[str, Any]] = {}
        self.sockets: dict[str, set[WebSocket]] = {}
        self.redis: aioredis.Redis | None = None
        self.pubsub: Any = None
        self.listener: asyncio.Task[None] | None = None

    async def open(self) -> None:
        if self.redis_url is not None:
            self.redis = aioredis.Redis.from_url(self.redis_url, decode_responses=True)
            self.pubsub = self.redis.pubsub()
            await self.pubsub.subscribe("plain:hello")  # listen() needs a subscription
            self.listener = asyncio.create_task(self._listen())

    async def close(self) -> None:
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.listener
        if self.pubsub is not None:
            await self.pubsub.aclose()
        if self.redis is not None:
            await self.redis.aclose()

    async def _listen(self) -> None:
        async for message in self.pubsub.listen():
            if message["type"] == "message":
                await self._send_local(message["channel"].removeprefix("plain:room:"), message)

    async def _send_local(self, room_id: str, message: dict[str, Any]) -> None:
        event = json.loads(message["data"])
        for websocket in list(self.sockets.get(room_id, ())):
            with contextlib.suppress(Exception):
                await websocket.send_json(event)

    async def create(self, rules: Rules) -> str:
        room_id = secrets.token_hex(8)
        state = {"game": encode(Game(rules)), "version": 0, "players": 0, "votes": 0}
        if self.redis is None:
            self.local[room_id] = state
        else:
            await self.redis.set(f"plain:state:{room_id}", json.dumps(state), ex=TTL)
        return room_id

    async def attach(self, room_id: str, websocket: WebSocket) -> None:
        if room_id not in self.sockets:
            self.sockets[room_id] = set()
            if self.pubsub is not None:
                await self.pubsub.subscribe(f"plain:room:{room_id}")
        self.sockets[room_id].add(websocket)

    async def detach(self, room_id: str, websocket: WebSocket) -> None:
        sockets = self.sockets.get(room_id, set())
        sockets.discard(websocket)
        if not sockets:
            self.sockets.pop(room_id, None)
            if self.pubsub is not None:
                await self.pubsub.unsubscribe(f"plain:room:{room_id}")

    async def change(self, room_id: str, apply: Any) -> tuple[dict[str, Any], Any]:
        """``apply(state)`` (it changes the state, or raises) committed atomically; the new
        state and what ``apply`` returned (its event is published by the caller)."""
        if self.redis is None:
            state = self.local[room_id]
            result = apply(state)
            return state, result
        key = f"plain:state:{room_id}"
        while True:
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(key)
                    raw = await pipe.get(key)
                    if raw is None:
                        raise KeyError(room_id)
                    state = json.loads(raw)
                    result = apply(state)
                    pipe.multi()  # type: ignore[no-untyped-call]  # unannotated upstream
                    pipe.set(key, json.dumps(state), ex=TTL)
                    if result is not None and result.get("event") is not None:
                        pipe.publish(f"plain:room:{room_id}", json.dumps(result["event"]))
                    await pipe.execute()
                    return state, result
                except WatchError:
                    continue

    async def broadcast(self, room_id: str, event: dict[str, Any]) -> None:
        """In one process, to every socket of the room (with Redis, the commit published)."""
        if self.redis is None:
            for websocket in list(self.sockets.get(room_id, ())):
                with contextlib.suppress(Exception):
                    await websocket.send_json(event)


async def create_room(request: Request) -> Response:
    body = await request.json()
    try:
        rules = Rules.from_dict(body.get("rules") or {})
    except (GameError, TypeError, AttributeError) as error:
        return JSONResponse({"code": "invalid_rules", "message": str(error)}, status_code=400)
    room_id = await request.app.state.rooms.create(rules)
    return JSONResponse({"room_id": room_id, "version": 0}, status_code=201)


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def stats(request: Request) -> Response:
    """Which worker answered (the bench waits until every worker does)."""
    return JSONResponse({"pid": os.getpid(), "encodes": {}, "conflicts": 0})


def take_seat(state: dict[str, Any]) -> dict[str, Any]:
    marks = "XO"
    if state["players"] >= 2:
        raise RoomFull("the room is full")
    state["players"] += 1
    state["version"] += 1
    return {"mark": marks[state["players"] - 1], "event": None}


def play(mark: str, message: dict[str, Any]) -> Any:
    def apply(state: dict[str, Any]) -> dict[str, Any]:
        if message.get("version") != state["version"]:
            raise StaleVersion(f"stale version {message.get('version')}, now {state['version']}")
        game = decode(state["game"])
        current = mark if not state.get("swapped") else {"X": "O", "O": "X"}[mark]
        cell: dict[str, Any] = {k: message[k] for k in ("row", "col", "layer") if k in message}
        move = game.play(cell, mark=current)
        state["game"] = encode(game)
        state["version"] += 1
        outcome = game.outcome
        event = {
            "type": "moved",
            "version": state["version"],
            "mark": current,
            "row": move.row,
            "col": move.col,
            "layer": move.layer,
            "ply": game.ply,
            "status": "finished" if outcome is not None else "playing",
            "outcome": None if outcome is None else {"reason": outcome.reason.value},
            "at": time.time(),
        }
        return {"event": event}

    return apply


def vote(state: dict[str, Any]) -> dict[str, Any]:
    state["version"] += 1
    state["votes"] += 1
    if state["votes"] < 2:
        return {"event": {"type": "rematch_offered", "version": state["version"]}}
    state["votes"] = 0
    state["swapped"] = not state.get("swapped", False)
    state["game"] = encode(Game(decode(state["game"]).rules))
    state["version"] += 1
    event = {
        "type": "new_game",
        "version": state["version"],
        "marks": {"X": "O", "O": "X"},
        "ply": 0,
        "turn": "X",
        "status": "playing",
        "started_at": time.time(),
    }
    return {"event": event}


async def room_socket(websocket: WebSocket) -> None:
    rooms: Rooms = websocket.app.state.rooms
    room_id = websocket.path_params["room_id"]
    await websocket.accept()
    attached = False
    try:
        join = await websocket.receive_json()
        mark = None
        if join.get("as") == "player":
            state, seat = await rooms.change(room_id, take_seat)
            mark = seat["mark"]
        else:
            state, _ = await rooms.change(room_id, lambda s: None)
        await rooms.attach(room_id, websocket)
        attached = True
        welcome = {"type": "welcome", "role": join.get("as"), "mark": mark}
        await websocket.send_json({**welcome, "version": state["version"], "state": state})
        while True:
            message = await websocket.receive_json()
            kind = message.get("type")
            try:
                if kind == "move" and mark is not None:
                    state, result = await rooms.change(room_id, play(mark, message))
                    reply = {"type": "move_ok", "move_id": message.get("move_id")}
                    await websocket.send_json({**reply, "version": state["version"]})
                    await rooms.broadcast(room_id, result["event"])
                elif kind == "rematch" and mark is not None:
                    await websocket.send_json({"type": "ack", "ref": message.get("id")})
                    state, result = await rooms.change(room_id, vote)
                    await rooms.broadcast(room_id, result["event"])
            except GameError as error:
                answer = {"type": "error", "code": error.code, "message": str(error)}
                await websocket.send_json({**answer, "ref": message.get("move_id")})
    except (WebSocketDisconnect, KeyError, ValueError):
        pass
    finally:
        if attached:
            await rooms.detach(room_id, websocket)


def create_plain(redis_url: str | None = None) -> Starlette:
    """The app (``redis_url`` None: from ``BENCH_PLAIN_REDIS_URL``, else in one process)."""
    rooms = Rooms(redis_url or os.environ.get(ENV_REDIS) or None)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await rooms.open()
        try:
            yield
        finally:
            await rooms.close()

    app = Starlette(
        routes=[
            Route("/api/rooms", create_room, methods=["POST"]),
            Route("/healthz", healthz, methods=["GET"]),
            Route("/api/stats", stats, methods=["GET"]),
            WebSocketRoute("/ws/{room_id}", room_socket),
            WebSocketRoute("/ws/{room_id}/watch", room_socket),  # spectators' path: the same
        ],
        lifespan=lifespan,
    )
    app.state.rooms = rooms
    return app


def main(argv: Sequence[str] | None = None) -> int:
    return serve_standalone(
        argv,
        prog="python -m bench.load.plain",
        description=__doc__,
        port=8002,
        create=create_plain,
        factory="bench.load.plain:create_plain",
        env_redis=ENV_REDIS,
    )


if __name__ == "__main__":
    sys.exit(main())
