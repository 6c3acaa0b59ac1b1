"""Frames written straight to the transport (server.fastpath.direct_send) are the frames uvicorn
would have written, in the order sent, and only when uvicorn would not have waited.

A real uvicorn (the server's options) serves a bare endpoint in the test's loop, each
connection wrapped in a ``server.Connection``; the real websockets client reads.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn
from hypothesis import given
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.asyncio.client import ClientConnection, connect
from websockets.frames import Frame, Opcode

from server import Settings
from server.fastpath import FastSender, RawSend
from server.fastpath.direct_send import frame_of, protocol_of, transport_ready
from server.launch import uvicorn_options
from server.ws.close_codes import CloseCode
from server.ws.connection import Connection
from tests.support.waiting import eventually

WAIT = 20.0  # a bound against hangs, never a measurement


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_frame_is_the_one_websockets_serializes(size: int) -> None:
    text = "é" * (size // 2) + "x" * (size % 2)
    expected = Frame(Opcode.TEXT, text.encode()).serialize(mask=False)
    assert frame_of(text) == expected


@given(st.text(max_size=300))
def test_any_text_frames_as_websockets_frames_it(text: str) -> None:
    assert frame_of(text) == Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


def test_a_fan_out_frames_once_and_an_equal_text_is_framed_anew() -> None:
    text = "".join(["{", '"a":1', "}"])
    first = frame_of(text)
    assert frame_of(text) is first  # the same text object: the same bytes, not rebuilt
    twin = "".join(["{", '"a":1', "}"])
    assert twin is not text and frame_of(twin) == first
    assert frame_of('{"a":2}') != first


def _protocol(connection: Connection) -> Any:
    """uvicorn's protocol behind the connection's fastpath sender (RawSend is in front)."""
    sender = connection._sender
    assert isinstance(sender, FastSender)
    return sender.protocol


def _writing(connection: Connection) -> bool:
    """Whether a writer task drains the connection's queue (its socket made it wait)."""
    return connection._writer is not None


async def _fill_until_paused(connection: Connection) -> list[str]:
    """Send padded texts, letting the loop write between sends, until the socket makes the
    connection wait (a client that does not read); the texts sent, in order."""
    pad = "x" * 32_000
    sent: list[str] = []
    while not _writing(connection):
        sent.append(f"{len(sent)}:{pad}")
        assert connection.send(sent[-1])
        assert len(sent) < 5_000, "the socket never paused"
        await asyncio.sleep(0)  # the test: a sender that lets the loop write between sends
    return sent


class _Endpoint:
    """A real uvicorn with one WebSocket route; each accepted socket's ``Connection`` is
    put in ``accepted``; the endpoint reads nothing and ends when ``release`` is set."""

    def __init__(self) -> None:
        self.accepted: asyncio.Queue[Connection] = asyncio.Queue()
        self.release = asyncio.Event()
        self.port = 0

    async def endpoint(self, websocket: WebSocket) -> None:
        await websocket.accept()
        connection = Connection(websocket, queue_size=10_000)
        await self.accepted.put(connection)
        await self.release.wait()  # a peer's departure is seen by the next send alone
        if not connection.ended:
            connection.end(CloseCode.NORMAL, "test over")
        await connection.close(timeout=2.0)

    async def open(self) -> tuple[ClientConnection, Connection]:
        client = await connect(f"ws://127.0.0.1:{self.port}/ws", max_queue=4)
        return client, await asyncio.wait_for(self.accepted.get(), WAIT)


@pytest.fixture
async def endpoint() -> AsyncIterator[_Endpoint]:
    made = _Endpoint()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        made.port = probe.getsockname()[1]
    options: dict[str, Any] = uvicorn_options(Settings())
    options.update(host="127.0.0.1", port=made.port, lifespan="off", log_level="warning")
    options.pop("workers", None)
    app = RawSend(Starlette(routes=[WebSocketRoute("/ws", made.endpoint)]))
    server = uvicorn.Server(uvicorn.Config(app, **options))
    serving = asyncio.create_task(server.serve())
    await eventually(lambda: server.started, "uvicorn started", timeout=WAIT)
    try:
        yield made
    finally:
        made.release.set()
        server.should_exit = True
        await asyncio.wait_for(serving, WAIT)


async def test_frames_go_straight_to_the_socket_and_arrive_in_order(endpoint: _Endpoint) -> None:
    client, connection = await endpoint.open()
    protocol = _protocol(connection)
    assert protocol is not None  # the server's own uvicorn protocol: the direct path is on
    texts = [f'{{"n":{n},"pad":"{"é" * n}"}}' for n in range(200)]
    for text in texts:
        assert connection.send(text)
    assert connection.sent == len(texts) and connection._writer is None
    received = [await asyncio.wait_for(client.recv(), WAIT) for _ in texts]
    assert received == texts
    await client.close()


async def test_a_client_that_does_not_read_gets_the_rest_in_order_through_the_writer(
    endpoint: _Endpoint,
) -> None:
    client, connection = await endpoint.open()
    sent = await _fill_until_paused(connection)
    pad = "x" * 32_000
    paused_at = len(sent)
    protocol = _protocol(connection)
    assert protocol is not None
    assert transport_ready(protocol) is None  # paused: uvicorn would wait
    for _ in range(20):  # queued behind the waiting send
        text = f"{len(sent)}:{pad}"
        assert connection.send(text)
        sent.append(text)
    received = [str(await asyncio.wait_for(client.recv(), WAIT)) for _ in sent]
    assert [text.split(":")[0] for text in received] == [str(n) for n in range(len(sent))]
    assert received == sent and paused_at > 1
    # drained: the writer ends and frames go straight out again
    await eventually(lambda: not _writing(connection), "the writer ended", timeout=WAIT)
    assert connection.send("after") and not _writing(connection)
    assert await asyncio.wait_for(client.recv(), WAIT) == "after"
    await client.close()


async def test_nothing_is_written_straight_once_the_close_is_sent(endpoint: _Endpoint) -> None:
    client, connection = await endpoint.open()
    protocol = _protocol(connection)
    assert protocol is not None
    transport = transport_ready(protocol)
    assert transport is not None
    transport.write(frame_of("before"))
    assert await asyncio.wait_for(client.recv(), WAIT) == "before"
    connection.end(CloseCode.NORMAL, "bye")
    await connection.close(timeout=2.0)
    assert transport_ready(protocol) is None
    assert not connection.send("after the close frame")
    await asyncio.wait_for(client.wait_closed(), WAIT)
    assert client.close_code == CloseCode.NORMAL


async def test_a_peer_that_went_away_ends_the_connection_on_the_next_send(
    endpoint: _Endpoint,
) -> None:
    client, connection = await endpoint.open()
    protocol = _protocol(connection)
    assert protocol is not None
    client.transport.abort()  # no close frame: the TCP connection just drops
    await eventually(lambda: protocol.disconnected, "the server saw the drop", timeout=WAIT)
    assert transport_ready(protocol) is None
    assert not connection.send("to nobody")  # uvicorn's send raises: the connection ends
    assert connection.ended and connection.close_code is None


def test_another_asgi_server_takes_the_asgi_send() -> None:
    async def send(message: dict[str, Any]) -> None:
        return None

    assert protocol_of(send) is None
    assert protocol_of(None) is None


class _CountingTransport:
    """The connection's real transport, counting its writes (the one thing observed)."""

    def __init__(self, transport: Any) -> None:
        self._transport = transport
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))
        self._transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


async def test_an_answer_and_its_event_go_out_in_one_write(endpoint: _Endpoint) -> None:
    client, connection = await endpoint.open()
    protocol = _protocol(connection)
    counting = _CountingTransport(protocol.transport)
    protocol.transport = counting
    event = '{"type":"moved","version":8}'
    assert connection.send_all(['{"type":"move_ok","version":8}', event])
    assert len(counting.writes) == 1 and connection.sent == 2
    assert counting.writes[0].endswith(frame_of(event))
    assert await asyncio.wait_for(client.recv(), WAIT) == '{"type":"move_ok","version":8}'
    assert await asyncio.wait_for(client.recv(), WAIT) == event
    protocol.transport = counting._transport
    await client.close()


async def test_a_pair_behind_a_waiting_send_is_queued_in_order(endpoint: _Endpoint) -> None:
    client, connection = await endpoint.open()
    sent = await _fill_until_paused(connection)
    assert connection.send_all(["answer", "event"])
    sent += ["answer", "event"]
    received = [str(await asyncio.wait_for(client.recv(), WAIT)) for _ in sent]
    assert received == sent
    await client.close()


async def test_events_owed_together_go_out_in_one_write(endpoint: _Endpoint) -> None:
    client, connection = await endpoint.open()
    protocol = _protocol(connection)
    counting = _CountingTransport(protocol.transport)
    protocol.transport = counting
    events = [f'{{"type":"moved","version":{v}}}' for v in (3, 4, 5)]
    assert connection.send_all(events)
    assert len(counting.writes) == 1 and connection.sent == 3
    assert counting.writes[0] == b"".join(frame_of(event) for event in events)
    assert [await asyncio.wait_for(client.recv(), WAIT) for _ in events] == events
    protocol.transport = counting._transport
    await client.close()


async def test_events_owed_behind_a_waiting_send_are_queued_in_order(
    endpoint: _Endpoint,
) -> None:
    client, connection = await endpoint.open()
    sent = await _fill_until_paused(connection)
    assert connection.send_all(["one", "two", "three"])
    sent += ["one", "two", "three"]
    received = [str(await asyncio.wait_for(client.recv(), WAIT)) for _ in sent]
    assert received == sent
    await client.close()


def test_several_texts_handed_in_turn_are_each_framed_once() -> None:
    """A crowd's listener owed three events frames them in turn, listener after listener:
    each text's frame is kept, not rebuilt for every listener."""
    texts = ["".join(["{", f'"version":{v}', "}"]) for v in range(3)]
    frames = [frame_of(text) for text in texts]
    for _ in range(3):
        assert all(frame_of(text) is frame for text, frame in zip(texts, frames, strict=True))
    many = ["".join(["{", f'"n":{n}', "}"]) for n in range(40)]
    for text in many:  # more texts than are kept: the oldest are framed anew, still right
        frame_of(text)
    assert [frame_of(text) for text in texts] == frames
