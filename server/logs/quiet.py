"""uvicorn's own records that the app reports better itself are dropped.

uvicorn's stock WebSocket protocol (the plain path, ``--no-fastpath``) logs an ERROR with a
traceback for every text frame that is not UTF-8, and any client can send one; the Session
logs that refusal once, at WARNING, from the 1007 it closed with (server.ws.session). The
filter sits on uvicorn's logger, so every handler (the configured one, a test's) is spared.
"""

from __future__ import annotations

import logging

__all__ = ["DROPPED", "QuietUvicorn", "install_quiet"]

DROPPED = frozenset({"Invalid UTF-8 sequence received from client."})
"""uvicorn's messages, as it logs them, that the app's own lines replace."""


class QuietUvicorn(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in DROPPED


def install_quiet() -> None:
    """Add the filter to uvicorn's error logger (once)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietUvicorn) for f in logger.filters):
        logger.addFilter(QuietUvicorn())
