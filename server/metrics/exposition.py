"""``GET /metrics``: the Prometheus text format (or OpenMetrics, when the scraper asks).

One process: prometheus_client's default registry (with its process and Python
collectors). Several workers (``PROMETHEUS_MULTIPROC_DIR`` set, server.metrics.multiprocess):
prometheus_client's multiprocess collector sums the files every worker writes, so any worker
answers for all of them; workers that are gone are first marked dead, so the gauges count
live workers only (a counter keeps what a dead worker counted).

With a token (``--metrics-token``) a request must carry ``Authorization: Bearer <token>``,
else it gets 401 and nothing is read. ``MetricsListener`` answers the same on an address of
its own (``--metrics-address``), from a thread of the serving command's process.
"""

from __future__ import annotations

import hmac
import http.server
import os
import re
import socket
import threading
from pathlib import Path
from typing import Any

from prometheus_client import REGISTRY, CollectorRegistry
from prometheus_client.exposition import choose_encoder
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .buffered import flush_all
from .process import sample_process

__all__ = [
    "ENV",
    "MetricsListener",
    "authorized",
    "forget_dead_workers",
    "metrics_routes",
    "multiprocess_dir",
    "worker_exited",
]

ENV = "PROMETHEUS_MULTIPROC_DIR"
_LIVE_FILE = re.compile(r"gauge_live\w*?_(\d+)\.db")


def multiprocess_dir() -> str | None:
    """The directory the workers share their values in, when there is one."""
    return os.environ.get(ENV) or None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's: alive
        return True
    return True


def forget_dead_workers(directory: str) -> list[int]:
    """Mark every worker that left live gauges in ``directory`` and no longer runs as dead
    (prometheus_client's ``mark_process_dead``); the pids it marked."""
    dead = set()
    for path in Path(directory).glob("gauge_live*.db"):
        found = _LIVE_FILE.fullmatch(path.name)
        if found is not None and not _alive(int(found.group(1))):
            dead.add(int(found.group(1)))
    for pid in dead:
        mark_process_dead(pid, directory)  # type: ignore[no-untyped-call]
    return sorted(dead)


def worker_exited() -> None:
    """This worker stops: its live gauges go (call once, as it shuts down)."""
    directory = multiprocess_dir()
    if directory is not None:
        mark_process_dead(os.getpid(), directory)  # type: ignore[no-untyped-call]


def _exposition(accept: str | None) -> tuple[bytes, str]:
    encoder, content_type = choose_encoder(accept or "")
    directory = multiprocess_dir()
    if directory is None:
        return encoder(REGISTRY), content_type
    forget_dead_workers(directory)
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    return encoder(registry), content_type


def authorized(token: str, header: str | None) -> bool:
    """Whether an ``Authorization`` header value carries ``token`` (any, without a token)."""
    if not token:
        return True
    scheme, _, given = (header or "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip(), token)


_UNAUTHORIZED = b"a bearer token is needed for /metrics\n"
_CHALLENGE = 'Bearer realm="metrics"'


def metrics_routes(token: str = "", *, elsewhere: bool = False) -> list[Route]:
    """``GET /metrics`` on the app (``token``: the bearer token it requires, if any); with
    ``elsewhere`` (a listener of its own serves it), a 404 there, so that the client's files
    do not answer it either."""

    async def metrics(request: Request) -> Response:
        if elsewhere:
            raise HTTPException(404)
        if not authorized(token, request.headers.get("authorization")):
            return Response(
                _UNAUTHORIZED,
                401,
                {"www-authenticate": _CHALLENGE, "cache-control": "no-store"},
                "text/plain",
            )
        flush_all()  # this worker's counts to the moment (on the loop: they are plain numbers)
        sample_process()
        # In a thread: with several workers a scrape reads every worker's files.
        body, content_type = await run_in_threadpool(_exposition, request.headers.get("accept"))
        return Response(body, media_type=content_type)

    return [Route("/metrics", metrics, methods=["GET"])]


class _Handler(http.server.BaseHTTPRequestHandler):
    server_version = "tictactoe-metrics"
    sys_version = ""
    token = ""

    def do_GET(self) -> None:
        if self.path.split("?", 1)[0] != "/metrics":
            self._answer(404, b"only /metrics is served here\n", "text/plain")
        elif not authorized(self.token, self.headers.get("authorization")):
            self._answer(401, _UNAUTHORIZED, "text/plain", {"WWW-Authenticate": _CHALLENGE})
        else:
            body, content_type = _exposition(self.headers.get("accept"))
            self._answer(200, body, content_type)

    def _answer(
        self, status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # scrapes every 15 s would drown the server's own lines


class MetricsListener:
    """``GET /metrics`` on ``(host, port)`` of its own, served by a daemon thread of this
    process: with several workers the supervisor's (it reads the workers' shared directory),
    with one the server's own (its per-move counts as of their last flush, at most a second
    old). ``start`` raises OSError when the address cannot be bound."""

    def __init__(self, address: tuple[str, int], token: str = "") -> None:
        handler = type("MetricsHandler", (_Handler,), {"token": token})
        self._server = http.server.ThreadingHTTPServer(address, handler, bind_and_activate=False)
        if ":" in address[0]:  # an IPv6 address: the socket made above is IPv4
            self._server.socket.close()
            self._server.address_family = socket.AF_INET6
            self._server.socket = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def start(self) -> None:
        try:
            self._server.server_bind()
            self._server.server_activate()
        except OSError:
            self._server.server_close()
            raise
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="metrics-listener", daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._server.server_close()
