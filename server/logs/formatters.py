"""The two log formats: one JSON object a line, or one line of text, with the same fields.

Both read the fields ``ContextFilter`` put on the record (worker, room, conn) and any
other ``extra=`` field of the call (``close_code``, ``reason``...). Times are ISO 8601 in
UTC with milliseconds. An exception goes into ``exc`` (JSON) or follows the line (text).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

__all__ = ["JsonFormatter", "TextFormatter"]

_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "color_message",  # uvicorn's coloured twin of the message
    "worker",
    "room",
    "conn",
}


def _time(record: logging.LogRecord) -> str:
    moment = datetime.fromtimestamp(record.created, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")}


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", "worker"[, "room", "conn"][, extras][, "exc"]}``."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _time(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "worker": getattr(record, "worker", None),
        }
        for key in ("room", "conn"):
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        line.update(_extras(record))
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exc"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """``<time> <LEVEL> <logger> [worker room conn] <message> key=value...``."""

    def format(self, record: logging.LogRecord) -> str:
        where = " ".join(
            str(value)
            for value in (
                getattr(record, "worker", None),
                getattr(record, "room", None),
                getattr(record, "conn", None),
            )
            if value is not None
        )
        extras = "".join(f" {k}={v}" for k, v in _extras(record).items())
        line = f"{_time(record)} {record.levelname} {record.name} [{where}] {record.getMessage()}"
        line += extras
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        elif record.exc_text:
            line += "\n" + record.exc_text
        return line
