"""What every log line says about where it comes from: worker, room, connection.

The room and connection ids are context variables, set by the session for the task that
runs one WebSocket (server.ws.session), so every line logged while handling that connection
carries them, whichever module logs it. The worker id is the presence lease's id once the
app has started (it changes after a lost lease), else the process id. ``ContextFilter``
copies them onto each record, unless the call passed its own (``extra=``). With traces on
(server.telemetry.tracing), a record made while a span is current also gets ``trace_id``
and ``span_id``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["ContextFilter", "connection_context", "use_trace_ids", "use_worker_id", "worker_id"]

_room: ContextVar[str | None] = ContextVar("tictactoe_log_room", default=None)
_conn: ContextVar[str | None] = ContextVar("tictactoe_log_conn", default=None)
_worker: list[Callable[[], str]] = []  # the source, once the app has started
_trace: list[Callable[[], tuple[str, str] | None]] = []  # with traces on


def use_trace_ids(source: Callable[[], tuple[str, str] | None] | None) -> None:
    """Where the current (trace id, span id) come from (None: no traces)."""
    _trace[:] = [] if source is None else [source]


def use_worker_id(source: Callable[[], str] | None) -> None:
    """Where the worker id comes from (None: the process id)."""
    _worker[:] = [] if source is None else [source]


def worker_id() -> str:
    return _worker[0]() if _worker else str(os.getpid())


@contextmanager
def connection_context(room_id: str, conn_id: str) -> Iterator[None]:
    """Lines logged inside the block (and in tasks it starts) name this room and connection."""
    room, conn = _room.set(room_id), _conn.set(conn_id)
    try:
        yield
    finally:
        _conn.reset(conn)
        _room.reset(room)


class ContextFilter(logging.Filter):
    """Adds ``worker``, ``room`` and ``conn`` to every record (None when there is none)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "worker"):
            record.worker = worker_id()
        if not hasattr(record, "room"):
            record.room = _room.get()
        if not hasattr(record, "conn"):
            record.conn = _conn.get()
        if _trace and not hasattr(record, "trace_id"):
            ids = _trace[0]()
            if ids is not None:
                record.trace_id, record.span_id = ids
        return True
