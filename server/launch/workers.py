"""The supervisor of ``tictactoe serve --workers N``: N worker processes on one socket.

It replaces uvicorn's ``Multiprocess`` for what an operator needs from it:

- a worker has ``boot_timeout`` seconds to start serving (``--boot-timeout``), then sends a
  heartbeat every second from its event loop; one that does not start in time, or whose
  heartbeat stops for ``stall_timeout`` seconds, is killed and replaced, and one that dies
  is replaced, each said at WARNING with why;
- SIGINT and SIGTERM are passed on to every worker (SIGTERM drains for ``--drain-period``:
  server.launch.worker); the supervisor exits once all of them are gone, with 130 or 143;
  a worker that does not stop within its drain period plus ``STOP_TIMEOUT`` is killed;
- SIGUSR1 makes every worker drain (``/readyz`` 503) while serving on;
- SIGHUP restarts the workers one at a time: a new one starts (on the code installed now,
  with the settings of the start), and once it serves the old one stops (1012: its
  clients resume on the others); a new one that does not start ends the restart there and
  the old workers keep serving;
- a worker that exits before it served (the store went away, a bad app) stops everything:
  the exit status is STARTUP_FAILED (1); a port already in use is PORT_IN_USE (3);
- a worker stops by itself when the supervisor is gone, even after ``kill -9`` of it.

It returns only once every worker process has exited, so whatever they share (the metrics
directory) can be removed then.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from socket import socket
from typing import Any

import uvicorn

from .worker import NOT_STARTED, PORT_IN_USE, STARTUP_FAILED, STOPPED_BY, bind, worker_main

__all__ = ["PORT_IN_USE", "STARTUP_FAILED", "STOP_TIMEOUT", "Supervisor", "run_workers"]

log = logging.getLogger("tictactoe.server")

QUICK_DEATH = 10.0
"""Seconds after its start within which a worker's death counts as early: several in a row
in one slot and the next start there waits (a crash loop must not eat the host)."""
STOP_TIMEOUT = 30.0
"""Seconds a worker told to stop gets past its drain period before it is killed."""
_TICK = 0.2
_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1)

multiprocessing.allow_connection_pickling()  # the socket and the pipe go to each worker
_spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: new code on SIGHUP


@dataclass(eq=False)
class _Process:
    """One worker process and what the supervisor knows of it."""

    slot: int
    process: BaseProcess
    beats: multiprocessing.connection.Connection
    born: float = field(default_factory=time.monotonic)
    ready_at: float | None = None
    last_beat: float = 0.0
    told_to_stop: float | None = None
    stop_signal: int | None = None
    booting = False
    """Its code runs and handles signals (before, a signal would interrupt Python's own
    start with a traceback): a stop is sent only from then on."""
    killed_for: str | None = None

    @property
    def name(self) -> str:
        return f"worker {self.slot + 1} (pid {self.process.pid})"

    def signal(self, sig: int) -> None:
        if self.process.pid is not None and self.process.exitcode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, sig)

    def stop(self, sig: int) -> None:
        if self.told_to_stop is None:
            self.told_to_stop = time.monotonic()
        self.stop_signal = sig
        if self.booting:
            self.signal(sig)

    def kill(self, why: str) -> None:
        self.killed_for = why
        self.signal(signal.SIGKILL)


def _ended(exitcode: int | None) -> str:
    if exitcode is None:
        return "still runs"
    if exitcode < 0:
        try:
            return f"was killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"was killed by signal {-exitcode}"
    return f"exited with status {exitcode}"


class Supervisor:
    """See the module. ``run`` returns the exit status for ``tictactoe serve``."""

    def __init__(
        self,
        workers: int,
        log_config: dict[str, Any],
        options: dict[str, Any],
        *,
        drain_period: float = 0.0,
        boot_timeout: float = 60.0,
        stall_timeout: float = 30.0,
    ) -> None:
        self.count = workers
        self.log_config = log_config
        self.options = options
        self.drain_period = drain_period
        self.boot_timeout = boot_timeout
        self.stall_timeout = stall_timeout
        self.slots: list[_Process] = []
        self.retiring: list[_Process] = []
        """Old workers told to stop by a restart, until they exit."""
        self.replacing: _Process | None = None
        """The new worker of a SIGHUP restart, until it serves."""
        self.pending_restart: list[int] = []
        self.stopping: int | None = None
        self.draining = False
        self.failed = False
        self.respawns: dict[int, float] = {}
        """Slots whose worker died, and when another is started there (monotonic)."""
        self.quick_deaths: dict[int, int] = {}
        """Per slot, workers in a row that died within QUICK_DEATH of their start."""
        self.received: list[int] = []
        self.socket: socket | None = None

    def run(self) -> int:
        config = uvicorn.Config(
            "server.app:create_app", factory=True, log_config=self.log_config, **self.options
        )
        self.socket = bind(config)  # uvicorn's one line when the port is taken
        if self.socket is None:
            return PORT_IN_USE
        original = {sig: signal.signal(sig, self._note) for sig in _SIGNALS}
        try:
            log.info("supervisor %d: starting %d workers", os.getpid(), self.count)
            self.slots = [self._spawn(slot) for slot in range(self.count)]
            while self._live() or self.respawns:
                waited = [p.beats for p in self._live()] + [
                    p.process.sentinel for p in self._live()
                ]
                multiprocessing.connection.wait(waited, timeout=_TICK)
                self._handle_signals()
                self._read_beats()
                self._reap()
                self._check_times()
                self._respawn()
                self._advance_restart()
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)
            self.socket.close()
        if self.failed:
            return STARTUP_FAILED
        return STOPPED_BY.get(self.stopping, 0) if self.stopping is not None else 0

    # the processes

    def _spawn(self, slot: int) -> _Process:
        assert self.socket is not None
        reader, writer = _spawn.Pipe(duplex=False)
        process = _spawn.Process(
            target=worker_main,
            args=(self.log_config, self.options, self.socket, writer),
            name=f"tictactoe-worker-{slot + 1}",
        )
        process.start()
        writer.close()  # the worker holds the other end: EOF here once it is gone
        return _Process(slot, process, reader)

    def _live(self) -> list[_Process]:
        every = [*self.slots, *self.retiring]
        if self.replacing is not None:
            every.append(self.replacing)
        return every

    def _note(self, sig: int, frame: object) -> None:
        self.received.append(sig)

    def _handle_signals(self) -> None:
        received, self.received = self.received, []
        for sig in received:
            if sig in (signal.SIGINT, signal.SIGTERM):
                if self.stopping is None:
                    self.stopping = sig
                    self.pending_restart = []
                    how = (
                        f"draining for {self.drain_period:g} s, then stopping"
                        if sig == signal.SIGTERM and self.drain_period > 0
                        else "stopping"
                    )
                    log.info("%s: %s the workers", signal.Signals(sig).name, how)
                for process in self._live():
                    process.stop(sig)
            elif sig == signal.SIGUSR1 and self.stopping is None:
                self.draining = True
                log.warning("SIGUSR1: every worker drains (/readyz answers 503)")
                for process in self._live():
                    process.signal(signal.SIGUSR1)
            elif sig == signal.SIGHUP and self.stopping is None:
                if self.replacing is not None or self.pending_restart:
                    log.warning("SIGHUP: a restart of the workers is under way; ignored")
                    continue
                log.info("SIGHUP: restarting the %d workers one at a time", len(self.slots))
                self.pending_restart = list(range(len(self.slots)))

    def _read_beats(self) -> None:
        now = time.monotonic()
        for process in self._live():
            try:
                while process.beats.poll():
                    message = process.beats.recv()
                    process.last_beat = now
                    if message == "booting":
                        process.booting = True
                        if process.stop_signal is not None:  # told to stop meanwhile
                            process.signal(process.stop_signal)
                    if message == "ready" and process.ready_at is None:
                        process.ready_at = now
                        log.info(
                            "%s serves, %.1f s after it started", process.name, now - process.born
                        )
                        if self.draining:
                            process.signal(signal.SIGUSR1)
            except (EOFError, OSError):
                pass  # it is gone: _reap says how

    def _reap(self) -> None:
        for process in list(self._live()):
            process.process.join(0)
            if process.process.exitcode is None:
                continue
            process.beats.close()
            ended = _ended(process.process.exitcode)
            if process in self.retiring:
                self.retiring.remove(process)
                log.info("%s %s (replaced by the restart)", process.name, ended)
            elif process is self.replacing:
                self.replacing = None
                if self.stopping is None:
                    why = process.killed_for or ended
                    log.warning(
                        "SIGHUP: the new %s %s before it served; the restart stops there "
                        "and the other workers keep serving",
                        process.name,
                        why,
                    )
                    self.pending_restart = []
            else:
                self.slots.remove(process)
                if self.stopping is not None:
                    if process.killed_for:
                        log.warning("%s was killed: %s", process.name, process.killed_for)
                    continue
                code = process.process.exitcode
                if process.ready_at is None and process.killed_for is None and code > 0:
                    why = "did not start" if code == NOT_STARTED else ended
                    log.error("%s %s: stopping the others", process.name, why)
                    self.failed = True
                    self.stopping = signal.SIGINT
                    for other in self._live():
                        other.stop(signal.SIGINT)
                    continue
                why = f"was killed: {process.killed_for}" if process.killed_for else ended
                self._replace(process, why)

    def _check_times(self) -> None:
        now = time.monotonic()
        for process in self._live():
            if process.killed_for is not None:
                continue
            if process.told_to_stop is not None:
                if now - process.told_to_stop > self.drain_period + STOP_TIMEOUT:
                    process.kill(
                        f"it did not stop within {self.drain_period + STOP_TIMEOUT:g} s "
                        "(the drain period, then the shutdown)"
                    )
            elif process.ready_at is None:
                if now - process.born > self.boot_timeout:
                    process.kill(
                        f"it did not start within {self.boot_timeout:g} s (--boot-timeout)"
                    )
            elif self.stall_timeout and now - process.last_beat > self.stall_timeout:
                process.kill(
                    f"no heartbeat for {self.stall_timeout:g} s: its event loop is stuck "
                    "(--stall-timeout)"
                )

    def _replace(self, dead: _Process, why: str) -> None:
        """Start another worker in the dead one's slot: at once, or after a backoff (1 s,
        doubling up to 30 s) when the ones before it there died within QUICK_DEATH."""
        slot = dead.slot
        quick = time.monotonic() - dead.born < QUICK_DEATH
        self.quick_deaths[slot] = self.quick_deaths.get(slot, 0) + 1 if quick else 0
        delay = min(2.0 ** (self.quick_deaths[slot] - 1), 30.0) if quick else 0.0
        after = f" in {delay:g} s ({self.quick_deaths[slot]} early deaths in a row)"
        log.warning("%s %s; starting another%s", dead.name, why, after if delay else "")
        self.respawns[slot] = time.monotonic() + delay

    def _respawn(self) -> None:
        if self.stopping is not None:
            self.respawns.clear()
            return
        now = time.monotonic()
        for slot, at in list(self.respawns.items()):
            if at <= now:
                del self.respawns[slot]
                self.slots.append(self._spawn(slot))
                self.slots.sort(key=lambda p: p.slot)

    def _advance_restart(self) -> None:
        if self.stopping is not None or self.retiring:
            return  # one at a time: the old one is gone before the next is replaced
        if self.replacing is None:
            if self.pending_restart:
                slot = self.pending_restart.pop(0)
                self.replacing = self._spawn(slot)
            return
        if self.replacing.ready_at is None:
            return
        new, self.replacing = self.replacing, None
        index = next((i for i, p in enumerate(self.slots) if p.slot == new.slot), None)
        if index is None:  # its worker died meanwhile: the new one takes the empty slot
            self.respawns.pop(new.slot, None)
            self.slots.append(new)
            self.slots.sort(key=lambda p: p.slot)
            return
        old, self.slots[index] = self.slots[index], new
        old.stop(signal.SIGINT)  # no drain: the other workers serve on the same socket
        self.retiring.append(old)
        if not self.pending_restart:
            log.info("SIGHUP: the last worker is replaced")


def run_workers(
    workers: int,
    log_config: dict[str, Any],
    options: dict[str, Any],
    *,
    drain_period: float = 0.0,
    boot_timeout: float = 60.0,
    stall_timeout: float = 30.0,
) -> int:
    """Serve the app built from the environment (``Settings.from_env()``) in ``workers``
    processes until a signal stops them; the exit status (see the module)."""
    supervisor = Supervisor(
        workers,
        log_config,
        options,
        drain_period=drain_period,
        boot_timeout=boot_timeout,
        stall_timeout=stall_timeout,
    )
    return supervisor.run()
