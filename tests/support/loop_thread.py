"""An event loop in a thread of its own, for the async parts of a sync test.

Playwright's sync API holds the test's thread (tests/e2e/conftest.py), so the async
helpers a browser test needs beside the page (the loopback push service of
tests/support/push_service.py, a websockets ``Client``) run here: ``run(coro)`` runs a
coroutine on this loop and returns its result, bounded by ``WAIT`` against hangs.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from tests.support.ws_client import WAIT

__all__ = ["LoopThread"]

T = TypeVar("T")


class LoopThread:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def start(self) -> LoopThread:
        self._thread.start()
        return self

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = WAIT) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(WAIT)
        self.loop.close()
