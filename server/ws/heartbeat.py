"""The application heartbeat, seen from the server: one sweep for every connection of a worker.

A client that sends ``ping`` (docs/protocol.md, "Heartbeat") keeps a heartbeat: the browser
sends one a second, so a connection that has said nothing for ``timeout`` seconds is either
throttled (a background tab, whose timers a browser may slow down to once a minute) or cut
off without a close (a dropped network: no FIN ever comes, and TCP would wait for minutes).
``Heartbeats`` tells them apart without a task or a timer per connection: one sweep a second
over the connections that keep a heartbeat finds each one silent for ``timeout`` and calls its
``silent``, at most once per ``timeout``. The session then checks the peer with a WebSocket
ping that it must answer within ``timeout`` (a browser answers those itself, however hidden
the tab; server.fastpath.probe), or, where the server cannot send one, closes it at once.

A connection that never sends ``ping`` (the terminal client, the bench's) is not watched:
uvicorn's WebSocket keepalive (``ping_interval``/``ping_timeout``) covers it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from rooms.common.tasks import cancel_all

__all__ = ["Beating", "Heartbeats"]

log = logging.getLogger("tictactoe.server")


class Beating(Protocol):
    """A connection that keeps a heartbeat: when it last sent anything (the loop's clock),
    when it was last checked, and what to do once it has been silent too long."""

    heard: float
    checked: float

    def silent(self, timeout: float) -> None: ...


class Heartbeats:
    """This worker's connections that keep a heartbeat, and the sweep over them."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.interval = min(1.0, timeout / 2)
        """Seconds between sweeps: a silence is found at most this late."""
        self._beating: set[Beating] = set()
        self.checks = 0
        """Silent connections found so far (each asked once per ``timeout``)."""
        self._task: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._beating)

    def keep(self, connection: Beating) -> None:
        self._beating.add(connection)

    def forget(self, connection: Beating) -> None:
        self._beating.discard(connection)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="heartbeats")

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            await cancel_all([task])

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.interval)
            try:
                self.sweep(loop.time())
            except Exception:  # one connection's fault must not end the sweep for all
                log.exception("the heartbeat sweep failed")

    def sweep(self, now: float) -> None:
        """Call ``silent`` on each connection silent for ``timeout`` and not checked within
        the last ``timeout`` (a check that was answered is not repeated every sweep)."""
        timeout = self.timeout
        for connection in [c for c in self._beating if now - c.heard >= timeout]:
            if now - connection.checked >= timeout:
                connection.checked = now
                self.checks += 1
                connection.silent(timeout)
