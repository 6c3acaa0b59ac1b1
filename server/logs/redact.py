"""Keep seat tokens and bot tokens out of log lines, whatever the log level.

At debug level the websockets protocol under uvicorn logs every frame (``< TEXT '{"type":
"join", ..., "token": "..."}'``) on uvicorn's logger, and keeps the frame in the record.
A filter on the server's loggers replaces a frame by its kind and size, and rewrites any
other record that carries a ``"token"`` or ``"bot_token"`` field so its value reads ``***``,
and anything shaped like a bot's API token (``tb1.<id>.<secret>``, rooms.bots.tokens) as
``tb1.***`` (such a record leaves the filter already formatted, so no handler can reach its
raw arguments).
"""

from __future__ import annotations

import logging
import re

__all__ = ["LOGGERS", "TokenRedactor", "install_redaction"]

LOGGERS = ("uvicorn", "uvicorn.error", "tictactoe", "tictactoe.server", "tictactoe.rooms")
"""uvicorn.access is left alone: it logs paths, which never hold tokens, and its formatter
needs the record's raw arguments."""
_TOKEN = re.compile(r'("(?:bot_)?token"\s*:\s*")[^"]*')
_BOT_TOKEN = re.compile(r"tb1\.[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{20,}")


class TokenRedactor(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if (
            record.msg in {"> %s", "< %s"}
            and isinstance(args, tuple)
            and len(args) == 1
            and hasattr(args[0], "opcode")
        ):
            frame = args[0]
            size = len(getattr(frame, "data", b""))
            record.msg = f"{str(record.msg)[0]} {frame.opcode.name} [{size} bytes]"
            record.args = None
            return True
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is the handler's to report, as usual
            return True
        if 'token"' in message or "tb1." in message:
            record.msg = _BOT_TOKEN.sub("tb1.***", _TOKEN.sub(r"\1***", message))
            record.args = None
        return True


def install_redaction() -> None:
    """Add the filter to the server's loggers (once each)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, TokenRedactor) for f in logger.filters):
            logger.addFilter(TokenRedactor())
