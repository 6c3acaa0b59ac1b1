"""bench.soak.netfault: the proxy carries bytes unchanged and in order, and its faults hold
them without closing anything: a cut (every connection, and new ones wait), a freeze (some
connections), loss (stalls, never a byte lost). Against a real echo server on loopback."""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from collections.abc import Iterator

import pytest

from bench.soak.netfault import FaultProxy

QUIET = 0.3
"""Seconds a held connection is watched for a byte that must not come."""


@pytest.fixture(scope="module")
def echo_port() -> Iterator[int]:
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def echo(conn: socket.socket) -> None:
        with conn:
            while data := conn.recv(65536):
                conn.sendall(data)

    def serve() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                conn, _ = listener.accept()
                threading.Thread(target=echo, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    yield listener.getsockname()[1]
    stop.set()
    listener.close()


@pytest.fixture
def proxy(echo_port: int) -> Iterator[FaultProxy]:
    started = FaultProxy(echo_port).start()
    yield started
    started.stop()


def _connect(proxy: FaultProxy) -> socket.socket:
    return socket.create_connection(("127.0.0.1", proxy.port), timeout=10)


def _read(conn: socket.socket, size: int) -> bytes:
    got = b""
    while len(got) < size:
        chunk = conn.recv(size - len(got))
        assert chunk, "the connection closed"
        got += chunk
    return got


def _silent(conn: socket.socket) -> bool:
    readable, _, _ = select.select([conn], [], [], QUIET)
    return not readable


def test_bytes_go_through_unchanged_and_in_order_even_with_every_chunk_stalled(
    proxy: FaultProxy,
) -> None:
    with _connect(proxy) as conn:
        conn.sendall(b"hello")
        assert _read(conn, 5) == b"hello"
        proxy.degrade(loss=1.0, latency=0.01)  # every chunk "lost": held, never dropped
        for index in range(5):
            conn.sendall(b"%d" % index)
        assert _read(conn, 5) == b"01234"
        proxy.degrade()
    assert proxy.connections == 1


def test_a_cut_holds_every_connection_without_closing_it_until_it_heals(
    proxy: FaultProxy,
) -> None:
    with _connect(proxy) as before:
        before.sendall(b"a")
        assert _read(before, 1) == b"a"
        proxy.cut()
        before.sendall(b"b")
        late = _connect(proxy)  # accepted, but not carried on while cut
        late.sendall(b"c")
        assert _silent(before) and _silent(late)
        proxy.heal()
        assert _read(before, 1) == b"b"  # the same connection: nothing was closed
        with late:
            assert _read(late, 1) == b"c"


def test_a_freeze_holds_the_share_of_connections_it_chose_until_the_thaw(
    proxy: FaultProxy,
) -> None:
    with _connect(proxy) as one, _connect(proxy) as two:
        for conn in (one, two):
            conn.sendall(b"x")
            assert _read(conn, 1) == b"x"
        assert proxy.freeze(0.5) == 1
        for conn in (one, two):
            conn.sendall(b"y")
        held = [conn for conn in (one, two) if _silent(conn)]
        assert len(held) == 1
        free = one if held[0] is two else two
        assert _read(free, 1) == b"y"
        proxy.thaw()
        assert _read(held[0], 1) == b"y"


def test_bad_degradations_are_refused(proxy: FaultProxy) -> None:
    with pytest.raises(ValueError, match="loss from 0 to 1"):
        proxy.degrade(loss=1.5)
    with pytest.raises(ValueError, match="latency must be 0 or more"):
        proxy.degrade(latency=-1)
