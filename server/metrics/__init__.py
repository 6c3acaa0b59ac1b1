"""Prometheus metrics: what is counted (``families``), rooms/' reports (``sink``), the
server's edge counts (``edge``), HTTP requests (``http``), each worker's process and the
build (``process``), the per-move counts' batching (``buffered``), ``GET /metrics`` on the
app or a listener of its own (``exposition``) and the workers' shared directory (``multiprocess``).
docs/operations.md ("Metrics") lists every metric."""

from __future__ import annotations

from . import edge
from .buffered import Flusher, flush_all
from .exposition import (
    MetricsListener,
    authorized,
    forget_dead_workers,
    metrics_routes,
    multiprocess_dir,
    worker_exited,
)
from .http import HttpMetrics
from .multiprocess import private_directory
from .process import announce_build, sample_process, version
from .sink import PrometheusSink, install_sink

__all__ = [
    "Flusher",
    "HttpMetrics",
    "MetricsListener",
    "PrometheusSink",
    "announce_build",
    "authorized",
    "edge",
    "flush_all",
    "forget_dead_workers",
    "install_sink",
    "metrics_routes",
    "multiprocess_dir",
    "private_directory",
    "sample_process",
    "version",
    "worker_exited",
]
