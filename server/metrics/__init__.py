"""Prometheus metrics: what is counted (``families``), rooms/' reports (``sink``), the
server's edge counts (``edge``), the per-move counts' batching (``buffered``), ``GET
/metrics`` (``exposition``) and the workers' shared directory (``multiprocess``).
docs/operations.md ("Metrics") lists every metric."""

from __future__ import annotations

from . import edge
from .buffered import Flusher, flush_all
from .exposition import forget_dead_workers, metrics_routes, multiprocess_dir, worker_exited
from .multiprocess import private_directory
from .sink import PrometheusSink, install_sink

__all__ = [
    "Flusher",
    "PrometheusSink",
    "edge",
    "flush_all",
    "forget_dead_workers",
    "install_sink",
    "metrics_routes",
    "multiprocess_dir",
    "private_directory",
    "worker_exited",
]
