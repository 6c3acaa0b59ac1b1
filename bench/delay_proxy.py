"""A TCP proxy that delays every byte by a fixed time each way: a long network on loopback.

Each connection's two directions are pumped separately: what is read is delivered
``delay`` seconds later, in order, without holding back what follows (latency, not a
bandwidth limit). A new connection also costs one round trip before its first byte goes on,
as a TCP handshake does on a real link. Runs its own asyncio loop in a daemon thread, so a
synchronous caller (Playwright's sync API) can use it; bytes are counted each way.
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

    async def _accept(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        opened = loop.time()
        with self._lock:
            self.traffic.connections += 1
        try:
            server_r, server_w = await asyncio.open_connection(self.target_host, self.target_port)
        except OSError:
            client_w.close()
            return
        handshake = opened + 2 * self.delay  # SYN, SYN-ACK: one round trip before any data
        pumps = [
            asyncio.create_task(self._pump(client_r, server_w, up=True, not_before=handshake)),
            asyncio.create_task(self._pump(server_r, client_w, up=False, not_before=0.0)),
        ]
        try:
            await asyncio.gather(*pumps)
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            for pump in pumps:
                pump.cancel()
            for writer in (client_w, server_w):
                writer.close()

    async def _pump(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        up: bool,
        not_before: float,
    ) -> None:
        """Read as fast as the sender writes; deliver each chunk ``delay`` after it came."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
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
