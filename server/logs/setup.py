"""One logging configuration for uvicorn's loggers, the app's and every library's.

``log_config(level, format)`` is a ``logging.config.dictConfig`` dictionary. It is handed to
uvicorn as ``log_config``, so uvicorn applies it in the process that serves and again in
every worker process it spawns; ``tictactoe serve`` applies it first in the parent too.
Every record goes through one handler on stderr, whose filters add the worker, room and
connection (server.logs.context) and keep seat tokens out (server.logs.redact), and whose
formatter writes JSON or text (server.logs.formatters).
"""

from __future__ import annotations

from typing import Any

__all__ = ["LOG_FORMATS", "LOG_LEVELS", "log_config"]

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
LOG_FORMATS = ("text", "json")

_FORMATTERS = {
    "text": "server.logs.formatters.TextFormatter",
    "json": "server.logs.formatters.JsonFormatter",
}


def log_config(level: str = "info", log_format: str = "text") -> dict[str, Any]:
    """The configuration for ``level`` (one of LOG_LEVELS) and ``log_format`` (LOG_FORMATS)."""
    if level not in LOG_LEVELS:
        raise ValueError(f"unknown log level {level!r}")
    if log_format not in _FORMATTERS:
        raise ValueError(f"unknown log format {log_format!r}")
    upper = level.upper()
    # uvicorn's loggers keep their own entries (uvicorn sets them up with propagate off)
    own = {"handlers": ["stderr"], "level": upper, "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,  # the app's module loggers exist before this
        "filters": {
            "context": {"()": "server.logs.context.ContextFilter"},
            "redact": {"()": "server.logs.redact.TokenRedactor"},
        },
        "formatters": {"main": {"()": _FORMATTERS[log_format]}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "main",
                "filters": ["context", "redact"],
            }
        },
        "loggers": {
            "uvicorn": dict(own),
            "uvicorn.error": {"level": upper, "propagate": True},
            "uvicorn.access": dict(own),
            "uvicorn.asgi": {"level": upper, "propagate": True},
            "tictactoe": dict(own),
        },
        "root": {"handlers": ["stderr"], "level": upper},
    }
