"""One worker: uvicorn's ``Server`` with a drain, a heartbeat to its supervisor, and the exit
status of the signal that stopped it.

- SIGTERM with a drain period: ``/readyz`` answers 503 ``draining`` at once (the balancer
  takes the server out), games go on, and only once the period has passed does uvicorn's
  shutdown close the WebSockets with 1012. Without a drain period, and on SIGINT, the
  shutdown starts at once. SIGUSR1 starts the drain alone (the worker keeps serving until
  a SIGTERM or SIGINT, which then waits only for what is left of the period). SIGHUP is
  the supervisor's (a rolling restart); a server of one worker says it ignores it.
- A SIGINT during a drain stops at once; one during the shutdown gives up waiting for
  connections (uvicorn's forced exit). A further SIGTERM changes nothing (systemd may
  signal every process of the service, and the supervisor passes its own on), and the
  same signal again within two seconds is the same request delivered twice (a terminal's
  Ctrl-C reaches the supervisor and its workers, which the supervisor then signals too).
- Under a supervisor (``beat``): ``ready`` once serving, then ``beat`` every second from
  the event loop, so a stuck loop is seen; and the worker stops when its supervisor is
  gone (``exit_with_parent``), even one killed with SIGKILL.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator
from socket import socket
from types import FrameType
from typing import Any

import uvicorn

from ..guards.drain import Drain

__all__ = [
    "BEAT_EVERY",
    "NOT_STARTED",
    "PORT_IN_USE",
    "STARTUP_FAILED",
    "STOPPED_BY",
    "Worker",
    "bind",
    "exit_with_parent",
    "serve_in_process",
]

log = logging.getLogger("tictactoe.server")

STARTUP_FAILED = 1
"""The exit status when a worker could not start (the reason is in the log above)."""
PORT_IN_USE = 3
"""The exit status when the address cannot be bound (uvicorn's ``STARTUP_FAILURE``)."""
STOPPED_BY: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}
"""The exit status after a clean stop by each signal: 128 + its number, as a shell shows."""
NOT_STARTED = 3
"""A worker process's exit status when it did not start (uvicorn's ``STARTUP_FAILURE``)."""
BEAT_EVERY = 1.0
"""Seconds between two heartbeats of a worker to its supervisor."""
_SAME_SIGNAL = 2.0
"""Seconds within which the same signal again is one request delivered twice."""
_ORPHAN_GRACE = 30.0
"""Seconds an orphaned worker gets for its clean stop before it exits regardless."""


class Worker(uvicorn.Server):
    """uvicorn's server with the drain and the heartbeat described in the module."""

    def __init__(
        self,
        config: uvicorn.Config,
        drain: Drain,
        drain_period: float,
        beat: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(config)
        self.drain = drain
        self.drain_period = drain_period
        self.beat = beat
        self.stop_at: float | None = None
        """When a SIGTERM's drain ends and the shutdown starts (monotonic seconds)."""
        self.stopped_by: int | None = None
        self._last: tuple[int, float] | None = None
        self._beaten = 0.0

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        """uvicorn's, with SIGUSR1 too, and without raising the signal again at the end:
        ``status`` says how the process should exit."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        handled = (signal.SIGINT, signal.SIGTERM, signal.SIGUSR1, signal.SIGHUP)
        original = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        now = time.monotonic()
        last, self._last = self._last, (sig, now)
        if last is not None and last[0] == sig and now - last[1] < _SAME_SIGNAL:
            return  # the same request, delivered twice
        if sig == signal.SIGHUP:  # the supervisor's to act on; alone, there is nothing to do
            if self.beat is None:
                log.warning(
                    "SIGHUP ignored: a rolling restart needs --workers above 1; restart the "
                    "server to run new code or settings"
                )
            return
        if sig == signal.SIGUSR1:
            if not self.drain.draining:
                log.warning("draining: /readyz answers 503 from now on; the games go on")
                self.drain.start()
            return
        if self.stopped_by is None:
            self.stopped_by = sig
        if self.should_exit or self.stop_at is not None:
            # A SIGTERM again changes nothing (systemd may signal every process of the
            # service, and the supervisor passes its own on). SIGINT cuts a drain short, or
            # stops the shutdown's wait for clients.
            if sig == signal.SIGINT:
                if self.should_exit:
                    self.force_exit = True
                self.should_exit = True
        elif (
            sig == signal.SIGTERM
            and self.drain_period > 0
            and self.stop_at is None
            and self.started
        ):
            self.stop_at = self.drain.ends(self.drain_period)
            left = max(0.0, self.stop_at - now)
            log.warning(
                "SIGTERM: draining for %.1f s (/readyz answers 503), then closing the "
                "WebSockets with 1012",
                left,
            )
        else:
            self.should_exit = True

    async def startup(self, sockets: list[socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            self._send("ready")

    async def on_tick(self, counter: int) -> bool:
        now = time.monotonic()
        if self.stop_at is not None and now >= self.stop_at:
            self.should_exit = True
        if now - self._beaten >= BEAT_EVERY:
            self._beaten = now
            self._send("beat")
        return await super().on_tick(counter)

    def _send(self, message: str) -> None:
        if self.beat is not None:
            with contextlib.suppress(OSError):  # the supervisor is gone: exit_with_parent
                self.beat(message)

    def status(self) -> int:
        """The exit status: 130 or 143 after SIGINT or SIGTERM, STARTUP_FAILED when it
        never started, else 0."""
        if not self.started:
            return STARTUP_FAILED
        return STOPPED_BY.get(self.stopped_by, 0) if self.stopped_by is not None else 0


def bind(config: uvicorn.Config) -> socket | None:
    """The listening socket, or None when the address is taken (uvicorn logs why)."""
    try:
        return config.bind_socket()
    except SystemExit:  # uvicorn's one line is logged; it exits with STARTUP_FAILURE
        return None


def serve_in_process(app: Any, log_config: dict[str, Any], options: dict[str, Any]) -> int:
    """Serve ``app`` in this process until a signal stops it; the exit status."""
    config = uvicorn.Config(app, log_config=log_config, **options)
    sock = bind(config)
    if sock is None:
        return PORT_IN_USE
    state = app.state.tictactoe
    server = Worker(config, state.drain, state.settings.drain_period)
    try:
        server.run(sockets=[sock])
    except SystemExit:  # uvicorn's exit for a failed lifespan startup (said in one line)
        return STARTUP_FAILED
    finally:
        sock.close()
    return server.status()


def exit_with_parent() -> None:
    """Stop this process cleanly (SIGINT to itself) once its parent is gone, and for good
    ``_ORPHAN_GRACE`` seconds later: a supervisor killed with SIGKILL leaves no worker
    serving on its own. A thread waits on the parent's sentinel (multiprocessing's), which
    works whatever the event loop is doing."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        log.warning("the supervisor (pid %s) is gone: stopping", parent.pid)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(_ORPHAN_GRACE)
        os._exit(STARTUP_FAILED)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _exit_quietly(sig: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def worker_main(
    log_config: dict[str, Any],
    options: dict[str, Any],
    sock: socket,
    beat: multiprocessing.connection.Connection,
) -> None:
    """A worker process (spawned by server.launch.workers): the app built from the
    environment, served on the supervisor's socket; exits 0 after a clean stop, uvicorn's
    STARTUP_FAILURE (3) when it could not start."""
    import logging.config

    from ..app import create_app
    from ..settings import Settings

    # Until uvicorn's handlers take over: a stop while the app is still being imported or
    # built ends the process quietly, not with a KeyboardInterrupt traceback in the logs.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _exit_quietly)
    beat.send("booting")  # from now on a stop signal is handled (server.launch.workers)
    logging.config.dictConfig(log_config)
    exit_with_parent()
    app = create_app(Settings.from_env())
    state = app.state.tictactoe
    config = uvicorn.Config(app, log_config=log_config, **options)
    server = Worker(config, state.drain, state.settings.drain_period, beat=beat.send)
    server.run(sockets=[sock])  # a failed startup raises SystemExit(3)
    sys.exit(0 if server.started else NOT_STARTED)
