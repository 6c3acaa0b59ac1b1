"""Logging: one setup for uvicorn and the app (``log_config``), JSON or text lines naming
the worker, room and connection of each (``connection_context``)."""

from __future__ import annotations

from .context import ContextFilter, connection_context, use_trace_ids, use_worker_id, worker_id
from .formatters import JsonFormatter, TextFormatter
from .quiet import install_quiet
from .setup import LOG_FORMATS, LOG_LEVELS, log_config

__all__ = [
    "LOG_FORMATS",
    "LOG_LEVELS",
    "ContextFilter",
    "JsonFormatter",
    "TextFormatter",
    "connection_context",
    "install_quiet",
    "log_config",
    "use_trace_ids",
    "use_worker_id",
    "worker_id",
]
