"""Where bots think: a process pool (the default) or a thread pool, opened with the server.

A process pool keeps a search off the event loop's interpreter. It is opened when the server
starts, and each of its processes is started and warmed at once (the search code imported,
one tiny search run), in the background: a room's first bot move then costs what later ones
do, instead of waiting for a process to start and import (about a second). The pool is shut
at exit: its processes are ended, not waited for (a warm-up on a busy host takes seconds,
and nobody waits for a search any more), and the stop waits until they are gone; a pool
process also ends by itself within a second or two of its server's death (``kill -9``
shuts nothing), so a crashed worker leaves no process behind. The pool's queues hold
named semaphores, tracked by a resource tracker of the server process's own
(``own_resource_tracker``): those of a worker that is killed are unlinked when it dies, not
reported leaked at its supervisor's clean stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import resource_tracker
from multiprocessing.process import BaseProcess
from typing import Any

from core import Game
from core.ai import BotAnswer, BotJob, answer_bot_job, run_bot_job

__all__ = ["BotPool", "own_resource_tracker", "warm_up"]

log = logging.getLogger("tictactoe.server")

_WARM_UP = BotJob.of(Game(), "hard", seed=0, budget=0.05)
"""One short search: the levels' code imported and run once in a new process."""
_WATCH_INTERVAL = 1.0  # seconds between a pool process's checks that its server still runs


def warm_up(server_pid: int) -> None:
    """Run once in each process of the pool as it starts (top-level: a process pool's
    initializer must be picklable): the warm-up search, and a watch on the server."""
    threading.Thread(target=_exit_with, args=(server_pid,), daemon=True).start()
    run_bot_job(_WARM_UP)


def _exit_with(server_pid: int) -> None:
    """End this process once the server is gone. A server killed outright (``kill -9``)
    never shuts its pool, and a pool process (a child of the fork server, not of the
    server) would otherwise wait for work forever: every crash would leave two behind."""
    while True:
        time.sleep(_WATCH_INTERVAL)
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # the pid is another user's now: ours is gone
            os._exit(0)


def own_resource_tracker() -> None:
    """Track this process's semaphores in a resource tracker of its own, not its parent's.

    A worker spawned by the supervisor (server.launch.workers) inherits the supervisor's
    tracker. A worker killed outright (``kill -9``, a stuck event loop) never unregisters
    its pool's semaphores there, so the supervisor's tracker, at the supervisor's clean
    stop, unlinks them and prints "resource_tracker: There appear to be 5 leaked semaphore
    objects". With a tracker of its own (a child of this process, started at the first
    semaphore), the tracker sees the worker die and cleans up then, and a clean stop finds
    nothing. A process that started its tracker itself (no parent's: ``_pid`` is set) or
    none keeps it. The tracker's fields are private; typeshed declares none of them.
    """
    tracker: Any = resource_tracker._resource_tracker
    with tracker._lock:
        if tracker._fd is not None and tracker._pid is None:  # inherited from the parent
            os.close(tracker._fd)
            tracker._fd = None  # ensure_running starts this process's own at first use


class BotPool:
    def __init__(
        self, kind: str, workers: int, *, initializer: Callable[[int], None] = warm_up
    ) -> None:
        self.kind = kind
        self.workers = workers
        self.initializer = initializer
        """What each pool process runs first, with the server's pid (``warm_up``)."""
        self._executor: Executor | None = None
        self.warming: list[Future[None]] = []
        """The warm-up of each process (a process pool's), done once it is ready."""

    def _open(self) -> Executor:
        if self.kind == "process":
            # forkserver: a clean process to fork from, never a copy of a threaded server
            own_resource_tracker()
            context = multiprocessing.get_context("forkserver")
            # imported once, by the fork server, before it forks the pool's processes
            context.set_forkserver_preload(["core.ai"])
            return ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=self.initializer,
                initargs=(os.getpid(),),
            )
        return ThreadPoolExecutor(self.workers, thread_name_prefix="bot")

    def start(self) -> None:
        """Open the pool and start every process now (a thread pool needs no warming)."""
        if self._executor is not None:
            return
        self._executor = self._open()
        if self.kind == "process":
            # The pool starts a process for each job that finds none idle; each runs
            # ``warm_up`` first, and these jobs do nothing more.
            try:
                self.warming = [self._executor.submit(_ready) for _ in range(self.workers)]
            except (OSError, RuntimeError) as exc:  # no process: serve all the same
                log.error("the bot pool could not start: %s", exc)
                self.close()  # the first bot move tries again
                return
            for future in self.warming:
                future.add_done_callback(self._report)

    async def think(self, job: BotJob) -> BotAnswer:
        if self._executor is None:
            self._executor = self._open()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, answer_bot_job, job)

    def close(self, *, wait: bool = False) -> None:
        """Shut the pool (jobs not yet begun are cancelled); with ``wait``, end its
        processes and return only once they have exited.

        The server's stop waits (in a thread, off the event loop): a pool left to shut
        down by itself while its process exits races with the exit, which stops the call
        queue's feeder thread before the pool's processes were told to end. They then wait
        forever, and so does the exit that joins them (or, killed, they leave semaphores
        behind and may still be starting while the metrics directory is removed). It ends
        them rather than waiting for their work: by then the bots' tasks are cancelled
        (rooms.watch closes first), so a search's answer has no one to go to, and a
        process still warming up (seconds on a busy host, uninterruptible) would hold the
        stop for nothing."""
        executor, self._executor = self._executor, None
        self.warming = []  # their ends are the stop's, not failures to report
        if executor is None:
            return
        if wait and isinstance(executor, ProcessPoolExecutor):
            _end_processes(executor)
        executor.shutdown(wait=wait, cancel_futures=True)

    def _report(self, future: Future[None]) -> None:
        if future not in self.warming or future.cancelled():
            return  # the pool was shut meanwhile
        if future.exception() is not None:
            # The pool is broken (a process could not start): bot moves will fail as they
            # would have; say why now rather than at the first bot move.
            log.error("the bot pool could not start: %s", future.exception())


def _end_processes(executor: ProcessPoolExecutor) -> None:
    """SIGTERM to each process of the pool. Its manager thread sees them end and winds the
    pool up (the shutdown joins it); the processes hold nothing that a stop loses. Python
    3.14's ``terminate_workers`` does this; before it, the processes are a private field."""
    processes: dict[int, BaseProcess] | None = getattr(executor, "_processes", None)
    for process in list((processes or {}).values()):
        with contextlib.suppress(OSError, ValueError):  # gone already, or closed
            process.terminate()


def _ready() -> None:
    """A job that only makes the pool start a process (which warms up first)."""
