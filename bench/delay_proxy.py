"""A TCP proxy that delays every byte by a fixed time each way: a long network on loopback.

Each connection's two directions are pumped separately: what is read is delivered
``delay`` seconds later, in order, without holding back what follows (latency, not a
bandwidth limit). A new connection also costs one round trip before its first byte goes on,
as a TCP handshake does on a real link. Runs its own asyncio loop in a daemon thread, so a
synchronous caller (Playwright's sync API) can use it; bytes are counted each way.

``blackhole()`` cuts the line silently, as a dropped network does: from then on nothing is
forwarded either way on any connection, and nothing is closed either (no FIN, no reset), so
each end learns of it only by its own timeouts. ``restore()`` lets new connections through
again; the ones open during the cut stay dark, as TCP connections whose packets were lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass, field

__all__ = ["DelayProxy", "Traffic"]

_CHUNK = 64 * 1024


@dataclass(slots=True)
class Traffic:
    """Bytes carried so far: ``up`` from clients to the server, ``down`` back; connections."""

    up: int = 0
    down: int = 0
    connections: int = 0


@dataclass(slots=True, eq=False)  # one per connection, kept in a set by identity
class _Link:
    """One proxied connection; ``dark``: cut (its bytes are dropped, its sockets held open)."""

    dark: bool = False


@dataclass(slots=True)
class DelayProxy:
    """``with DelayProxy("127.0.0.1", 8000, delay=0.25) as proxy:`` then use ``proxy.url``."""

    target_host: str
    target_port: int
    delay: float
    scheme: str = "http"  # what the browser speaks through it: http, or https to a TLS front
    traffic: Traffic = field(default_factory=Traffic)
    port: int = 0
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None
    _server: asyncio.Server | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _links: set[_Link] = field(default_factory=set)
    _handlers: set[asyncio.Task[None]] = field(default_factory=set)
    _cut: bool = False

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def __enter__(self) -> DelayProxy:
        started = threading.Event()
        self._loop = asyncio.new_event_loop()

        def serve() -> None:
            assert self._loop is not None
            asyncio.set_event_loop(self._loop)
            self._server = self._loop.run_until_complete(
                asyncio.start_server(self._accept, "127.0.0.1", 0)
            )
            self.port = self._server.sockets[0].getsockname()[1]
            started.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=serve, name="delay-proxy", daemon=True)
        self._thread.start()
        if not started.wait(10):
            raise RuntimeError("the delaying proxy did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        loop, server = self._loop, self._server
        if loop is None or server is None:
            return

        async def close() -> None:
            server.close()
            others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in others:
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)  # each closes its sockets

        asyncio.run_coroutine_threadsafe(close(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(10)
        loop.close()

    def reset(self) -> Traffic:
        """The traffic so far, and start counting from zero."""
        with self._lock:
            seen, self.traffic = self.traffic, Traffic()
        return seen

    def blackhole(self) -> None:
        """Stop forwarding on every connection, open now or opened later, closing none."""
        with self._lock:
            self._cut = True
            for link in self._links:
                link.dark = True

    def restore(self) -> None:
        """Forward new connections again (the ones cut stay dark)."""
        with self._lock:
            self._cut = False

    async def _accept(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        # Held here until done: asyncio keeps tasks only weakly, and once a dark link's client
        # has hung up (the reader at its end, out of the selector) nothing else holds this
        # task, its pumps or its sockets, so the collector would take them with both sockets
        # still open (a ResourceWarning in whichever test runs then) instead of ``__exit__``
        # cancelling them, which closes both.
        handler = asyncio.current_task()
        if handler is not None:
            self._handlers.add(handler)
            handler.add_done_callback(self._handlers.discard)
        loop = asyncio.get_running_loop()
        opened = loop.time()
        with self._lock:
            self.traffic.connections += 1
            link = _Link(dark=self._cut)
            self._links.add(link)
        if link.dark:  # accepted (the kernel did), and then nothing: held until the end
            try:
                await _swallow(client_r)
            finally:
                self._links.discard(link)
                client_w.close()
            return
        try:
            server_r, server_w = await asyncio.open_connection(self.target_host, self.target_port)
        except OSError:
            client_w.close()
            return
        handshake = opened + 2 * self.delay  # SYN, SYN-ACK: one round trip before any data
        pumps = [
            asyncio.create_task(
                self._pump(client_r, server_w, link, up=True, not_before=handshake)
            ),
            asyncio.create_task(self._pump(server_r, client_w, link, up=False, not_before=0.0)),
        ]
        try:
            await asyncio.gather(*pumps)
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            for pump in pumps:
                pump.cancel()
            self._links.discard(link)
            for writer in (client_w, server_w):
                writer.close()

    async def _pump(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        link: _Link,
        *,
        up: bool,
        not_before: float,
    ) -> None:
        """Read as fast as the sender writes; deliver each chunk ``delay`` after it came. Once
        the link is dark, what is read is dropped, an end is not passed on, and the pump holds
        on until the proxy stops."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if link.dark:
                    continue
                if not data:
                    with contextlib.suppress(OSError):
                        if writer.can_write_eof():
                            writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()

        delivering = asyncio.create_task(deliver())
        try:
            while True:
                data = await reader.read(_CHUNK)
                if link.dark:
                    await _swallow(reader, data)
                    return
                with self._lock:
                    if up:
                        self.traffic.up += len(data)
                    else:
                        self.traffic.down += len(data)
                queue.put_nowait((max(loop.time() + self.delay, not_before + self.delay), data))
                if not data:
                    break
            await delivering
        finally:
            delivering.cancel()


async def _swallow(reader: asyncio.StreamReader, last: bytes = b"x") -> None:
    """Read and drop until the proxy stops: after an end (``last`` empty), just wait."""
    while last:
        last = await reader.read(_CHUNK)
    await asyncio.Event().wait()
