"""Each worker's own process figures, as gauges of its own: resident memory, open file
descriptors and CPU seconds.

prometheus_client's process collector describes only the process that answers the scrape,
and is not used in multiprocess mode at all; so each worker samples itself (from
``/proc/self`` and ``os.times``) when it starts, every ``SAMPLE_EVERY`` seconds after, and
before it answers a scrape, into gauges whose multiprocess mode is ``liveall``: one series a
live worker, labelled with its pid. Where ``/proc`` is missing (not Linux), memory and
descriptors are left out and CPU seconds still count.
"""

from __future__ import annotations

import os
import platform
from contextlib import suppress
from importlib import metadata
from urllib.parse import urlsplit

from .families import BUILD_INFO, worker_process_gauges

__all__ = ["SAMPLE_EVERY", "announce_build", "sample_process", "version"]

SAMPLE_EVERY = 5.0
"""Seconds between two samples (counting descriptors lists ``/proc/self/fd``: 10,000
connections take about a millisecond, so not every second)."""
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def version() -> str:
    """The installed distribution's version (``0+unknown`` when run from a bare tree)."""
    try:
        return metadata.version("tictactoe-server")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def announce_build(store_url: str) -> None:
    """``tictactoe_build_info`` for this worker: 1 with its version, Python and store kind."""
    store = urlsplit(store_url).scheme or "unknown"
    BUILD_INFO.labels(version(), platform.python_version(), store).set(1)


def sample_process() -> None:
    """Set this worker's gauges from its process now."""
    memory, fds, cpu = worker_process_gauges()
    times = os.times()
    cpu.set(times.user + times.system)
    with suppress(OSError, ValueError, IndexError), open("/proc/self/statm", "rb") as statm:
        memory.set(int(statm.read().split()[1]) * _PAGE)
    with suppress(OSError):
        fds.set(len(os.listdir("/proc/self/fd")))
