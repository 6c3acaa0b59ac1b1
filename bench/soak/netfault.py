"""Network trouble on loopback: a TCP proxy before a server or Redis, whose faults switch on.

The soak puts one ``FaultProxy`` between each server and Redis and one between the clients
and each server, and switches faults on and off while games are played:

- **latency**: every chunk read is delivered ``latency`` seconds later, in order, each way.
- **loss**: TCP does not lose bytes, it retransmits them: a lost segment is a stall of the
  stream until the retransmission arrives, and everything behind it waits (head-of-line
  blocking). So each chunk read is, with probability ``loss``, held for a stall drawn from
  ``STALL`` (TCP's minimum retransmission timeout, 200 ms, to a few of them), and the chunks
  after it are delivered no sooner.
- **cut** (a partition): nothing is read or written either way on any connection, and a new
  connection is accepted but not carried on until the cut heals; no connection is closed, as
  when a link goes dark. Each side finds out by its own timeouts.
- **freeze** (half-open connections): the same for a few connections only, chosen at random:
  the peer stops reading and sending without a close. When they thaw, what was held flows
  again (a close the server sent meanwhile among it).

Runs its own asyncio loop in a daemon thread, so the soak's fault injector (a thread) can
switch faults synchronously.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

__all__ = ["STALL", "FaultProxy"]

STALL = (0.2, 1.0)
"""Seconds a "lost" chunk holds its stream, drawn uniformly (TCP's RTO is 200 ms at least)."""
_CHUNK = 64 * 1024
_T = TypeVar("_T")


@dataclass(eq=False, slots=True)
class _Pair:
    """One proxied connection; ``flowing`` is clear while it is frozen."""

    flowing: asyncio.Event = field(default_factory=asyncio.Event)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


class FaultProxy:
    """``FaultProxy(port).start()``, then connect to ``proxy.port`` instead of ``port``."""

    def __init__(self, target_port: int, *, seed: int = 1) -> None:
        self.target_port = target_port
        self.port = 0
        self.latency = 0.0
        self.loss = 0.0
        self.connections = 0
        """Connections accepted so far."""
        self._rng = random.Random(seed)
        self._pairs: set[_Pair] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.Server | None = None
        self._linked: asyncio.Event | None = None  # clear while cut

    # -- switches (called from other threads) ---------------------------------------------

    def start(self) -> FaultProxy:
        started = threading.Event()
        loop = self._loop = asyncio.new_event_loop()

        def serve() -> None:
            asyncio.set_event_loop(loop)
            self._linked = asyncio.Event()
            self._linked.set()
            self._server = loop.run_until_complete(
                asyncio.start_server(self._accept, "127.0.0.1", 0)
            )
            self.port = self._server.sockets[0].getsockname()[1]
            started.set()
            loop.run_forever()

        self._thread = threading.Thread(target=serve, name="fault-proxy", daemon=True)
        self._thread.start()
        if not started.wait(10):
            raise RuntimeError("the fault proxy did not start")
        return self

    def _call(self, make: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(make(), self._loop).result(10)

    def degrade(self, *, latency: float = 0.0, loss: float = 0.0) -> None:
        """Latency and loss from now on for every chunk read (0 and 0: a clean link)."""
        if latency < 0 or not 0 <= loss <= 1:
            raise ValueError(f"latency must be 0 or more and loss from 0 to 1: {latency}, {loss}")
        self.latency, self.loss = latency, loss

    def cut(self) -> None:
        async def cut() -> None:
            assert self._linked is not None
            self._linked.clear()

        self._call(cut)

    def heal(self) -> None:
        async def heal() -> None:
            assert self._linked is not None
            self._linked.set()

        self._call(heal)

    def freeze(self, share: float) -> int:
        """Freeze ``share`` of the open connections (at least one, if any); how many."""

        async def freeze() -> int:
            live = [pair for pair in self._pairs if pair.flowing.is_set()]
            count = min(len(live), max(1, round(share * len(live)))) if live else 0
            for pair in self._rng.sample(sorted(live, key=id), count):
                pair.flowing.clear()
            return count

        return self._call(freeze)

    def thaw(self) -> None:
        async def thaw() -> None:
            for pair in self._pairs:
                pair.flowing.set()

        self._call(thaw)

    def stop(self) -> None:
        loop, server = self._loop, self._server
        if loop is None or server is None:
            return

        async def close() -> None:
            server.close()
            tasks = [task for pair in self._pairs for task in pair.tasks]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)  # each closes its sockets

        with contextlib.suppress(Exception):
            self._call(close)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(10)
        loop.close()
        self._loop = None

    # -- the proxy (on its own loop) ------------------------------------------------------

    async def _accept(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        self.connections += 1
        pair = _Pair()
        pair.flowing.set()
        self._pairs.add(pair)
        try:
            await self._through(pair)  # a connection made during a cut waits for the heal
            try:
                server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)
            except OSError:
                return
            pair.tasks = [
                asyncio.create_task(self._pump(pair, client_r, server_w)),
                asyncio.create_task(self._pump(pair, server_r, client_w)),
            ]
            try:
                await asyncio.gather(*pair.tasks)
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                for task in pair.tasks:
                    task.cancel()
                server_w.close()
        finally:
            client_w.close()
            self._pairs.discard(pair)

    async def _through(self, pair: _Pair) -> None:
        """Until neither a cut nor a freeze holds this connection."""
        linked = self._linked
        assert linked is not None
        while not (linked.is_set() and pair.flowing.is_set()):
            await (linked.wait() if not linked.is_set() else pair.flowing.wait())

    async def _pump(
        self, pair: _Pair, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """One direction: read when the link is up, deliver each chunk when it is due."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                await self._through(pair)
                if not data:
                    with contextlib.suppress(OSError):
                        if writer.can_write_eof():
                            writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()

        delivering = asyncio.create_task(deliver())
        last_due = 0.0
        try:
            while True:
                await self._through(pair)
                data = await reader.read(_CHUNK)
                due = loop.time() + self.latency
                if data and self.loss and self._rng.random() < self.loss:
                    due += self._rng.uniform(*STALL)
                last_due = max(due, last_due)  # in order: a stalled chunk holds the rest
                queue.put_nowait((last_due, data))
                if not data:
                    break
            await delivering
        finally:
            delivering.cancel()
