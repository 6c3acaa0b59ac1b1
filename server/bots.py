"""Where bots think: a process pool (the default) or a thread pool, opened inside the server.

A process pool keeps a search off the event loop's interpreter; the pool is opened inside the
running server and shut at exit.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from core import Move
from core.ai import BotJob, run_bot_job

__all__ = ["BotPool"]


class BotPool:
    def __init__(self, kind: str, workers: int) -> None:
        self.kind = kind
        self.workers = workers
        self._executor: Executor | None = None

    def _open(self) -> Executor:
        if self.kind == "process":
            # forkserver: a clean process to fork from, never a copy of a threaded server
            context = multiprocessing.get_context("forkserver")
            return ProcessPoolExecutor(self.workers, mp_context=context)
        return ThreadPoolExecutor(self.workers, thread_name_prefix="bot")

    async def think(self, job: BotJob) -> Move:
        if self._executor is None:
            self._executor = self._open()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, run_bot_job, job)

    def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
