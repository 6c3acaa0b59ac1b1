"""``GET /metrics``: the Prometheus text format (or OpenMetrics, when the scraper asks).

One process: prometheus_client's default registry (with its process and Python
collectors). Several workers (``PROMETHEUS_MULTIPROC_DIR`` set, server.metrics.multiprocess):
prometheus_client's multiprocess collector sums the files every worker writes, so any worker
answers for all of them; workers that are gone are first marked dead, so the gauges count
live workers only (a counter keeps what a dead worker counted).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from prometheus_client import REGISTRY, CollectorRegistry
from prometheus_client.exposition import choose_encoder
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .buffered import flush_all

__all__ = ["ENV", "forget_dead_workers", "metrics_routes", "multiprocess_dir", "worker_exited"]

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


async def metrics(request: Request) -> Response:
    flush_all()  # this worker's counts to the moment (on the loop: they are plain numbers)
    # In a thread: with several workers a scrape reads every worker's files.
    body, content_type = await run_in_threadpool(_exposition, request.headers.get("accept"))
    return Response(body, media_type=content_type)


def metrics_routes() -> list[Route]:
    return [Route("/metrics", metrics, methods=["GET"])]
