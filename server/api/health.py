"""A worker's health: liveness, readiness for a balancer, and its own counters."""

from __future__ import annotations

import gc
import os
import socket

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rooms import ErrorCode, RoomError
from rooms.protocol import ENCODES

from ..state import app_state

__all__ = ["health_routes"]


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> Response:
    state = app_state(request.app)
    store = state.backend.store
    connections = state.connections
    if state.drain.draining:  # server.guards.drain: stopping soon, new clients go elsewhere
        body = {
            "status": "draining",
            "code": ErrorCode.UNAVAILABLE.value,
            "message": "this server is stopping; its games go on until it closes them",
            "store": store.name,
        }
        return JSONResponse(body, status_code=503)
    if connections.near_full:  # server.guards.capacity: new clients should go to another worker
        body = {
            "status": "full",
            "code": ErrorCode.UNAVAILABLE.value,
            "message": f"{connections.open} of {connections.limit} connections open",
            "store": store.name,
        }
        return JSONResponse(body, status_code=503)
    try:
        await store.ping()
    except RoomError as exc:
        body = {"status": "unavailable", "store": store.name, "message": exc.message}
        return JSONResponse(body, status_code=503)
    return JSONResponse({"status": "ready", "store": store.name})


async def stats(request: Request) -> Response:
    """This worker's counters, for tictactoe bench and operators: the messages it encoded by
    type (one per event whatever the receivers), the commits it lost to another writer,
    whether the fastpath is on, and its garbage collector (server.fastpath.collector). Per
    process: with several workers each answers for itself, named by ``host``, ``pid`` and
    ``worker`` (its presence id, which its connection ids carry); GET /metrics sums them."""
    state = app_state(request.app)
    collector = {
        "frozen": gc.get_freeze_count(),
        "threshold": list(gc.get_threshold()),
        "collections": [generation["collections"] for generation in gc.get_stats()],
    }
    if state.collector is not None:
        collector.update(state.collector.stats())
    return JSONResponse(
        {
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "worker": state.presence.worker,
            "encodes": dict(ENCODES),
            "conflicts": state.service.conflicts,
            "fastpath": state.settings.fastpath,
            "gc": collector,
        }
    )


def health_routes() -> list[Route]:
    return [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/api/stats", stats, methods=["GET"]),
    ]
