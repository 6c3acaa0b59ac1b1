"""The delaying proxy (bench/delay_proxy.py) on loopback sockets of the test's own: it carries
bytes intact both ways and counts them; a line cut with ``blackhole()`` stays held, ends and
all, until the proxy stops, which closes it."""

from __future__ import annotations

import gc
import socket
import socketserver
import threading
import time
import warnings
from collections.abc import Iterator

import pytest

from bench.delay_proxy import DelayProxy


class _Echo(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        while data := self.request.recv(65536):
            self.request.sendall(data.upper())


@pytest.fixture
def echo_port() -> Iterator[int]:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Echo)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def _exchange(port: int, payload: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(payload)
        conn.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := conn.recv(65536):
            received += chunk
        return received


def test_the_proxy_carries_every_byte_in_order_and_counts_them(echo_port: int) -> None:
    payload = b"".join(b"move %d;" % i for i in range(20_000))  # several reads' worth
    with DelayProxy("127.0.0.1", echo_port, delay=0.01) as proxy:
        assert _exchange(proxy.port, payload) == payload.upper()
        assert _exchange(proxy.port, b"ping") == b"PING"
        seen = proxy.reset()
        assert seen.connections == 2
        assert seen.up == seen.down == len(payload) + 4
        assert proxy.reset().connections == 0  # counting starts again


def test_a_cut_line_whose_ends_hung_up_is_closed_by_the_proxy_not_collected() -> None:
    """As in a silent drop: the line is cut, then the browser and the server each give up
    on their socket. The proxy holds its two sockets of that line until it stops (asyncio
    itself holds its tasks only weakly): none is left to the garbage collector to find
    open, which would warn in whatever test ran then."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(10)
        with DelayProxy("127.0.0.1", listener.getsockname()[1], delay=0.0) as proxy:
            client = socket.create_connection(("127.0.0.1", proxy.port), timeout=10)
            server_end, _ = listener.accept()
            client.sendall(b"up")
            assert server_end.recv(2) == b"up"  # the line is through
            proxy.blackhole()
            client.close()
            server_end.close()  # both ends hang up; the proxy passes on neither
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                for _ in range(5):  # the proxy's thread reads both ends' EOF meanwhile
                    time.sleep(0.1)
                    gc.collect()  # a whole collection: a few a test in a big worker process
            leaks = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
            assert leaks == []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            gc.collect()  # and once stopped, it closed them itself
        assert [w for w in caught if issubclass(w.category, ResourceWarning)] == []
