"""A client that stops reading is closed as too slow (docs/protocol.md, "Close codes"): the
4009 close frame is queued behind the frames already written, so a client that reads again
within ``close_timeout`` gets every frame and then 4009; one that never reads again is
reset after ``close_timeout`` and holds nothing on the server. With ``--no-fastpath``,
uvicorn writes the close only once the socket takes frames again (within the timeout)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Callable
from typing import Any

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from server.logs import ContextFilter
from tests.support.live_server import LiveServer
from tests.support.waiting import eventually

LINE = "x" * 200  # the longest chat line: the fewest lines fill the socket's buffers
MOST_LINES = 60_000  # a bound: loopback buffers take a few MB, about 7,000 lines here
LIMITS: dict[str, Any] = {
    "send_queue": 4,  # overflows soon after the socket stops taking frames
    "chat_rate": 100_000.0,
    "chat_burst": 100_000,
    "rate": 100_000.0,
    "burst": 100_000,
    # No keepalive ping among the frames: on a loaded machine filling the buffers can take
    # longer than the 20 s between pings, and a ping queued among the chat lines is no line.
    "ping_interval": 600.0,
}


class StalledClient:
    """A spectator on a raw socket that reads nothing after its handshake until told to:
    the server's frames pile up in the kernel's buffers, then in the server's."""

    def __init__(self, server: LiveServer, room_id: str) -> None:
        self.protocol = ClientProtocol(parse_uri(server.ws_url(room_id)))
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.settimeout(20)
        self.sock.connect(("127.0.0.1", server.port))
        self.port: int = self.sock.getsockname()[1]
        self.protocol.send_request(self.protocol.connect())
        self._flush()
        while not self.protocol.handshake_exc and self.protocol.state.name == "CONNECTING":
            self.protocol.receive_data(self.sock.recv(4096))
        assert self.protocol.handshake_exc is None
        self.protocol.events_received()  # the handshake response
        self.protocol.send_text(json.dumps({"type": "join", "as": "spectator"}).encode())
        self._flush()

    def _flush(self) -> None:
        for data in self.protocol.data_to_send():
            self.sock.sendall(data)

    def read_to_end(self) -> tuple[list[Frame], bool]:
        """Read until the server ends the connection: the frames, and whether the stream
        ended whole (no frame cut off)."""
        frames: list[Frame] = []
        while True:
            try:
                data = self.sock.recv(65536)
            except ConnectionResetError:
                data = b""
            if data:
                self.protocol.receive_data(data)
            else:
                self.protocol.receive_eof()
            frames.extend(e for e in self.protocol.events_received() if isinstance(e, Frame))
            self._flush()  # the reply to the server's close: the handshake ends at once
            if not data or self.protocol.state.name == "CLOSED":
                break
        whole = self.protocol.parser_exc is None
        return frames, whole

    def close(self) -> None:
        self.sock.close()


async def stall_until_refused(
    server: LiveServer,
    connect: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> StalledClient:
    """A stalled spectator, and chat lines to its room until the server refuses it as too
    slow."""
    caplog.handler.addFilter(ContextFilter())
    caplog.set_level(logging.WARNING)
    room_id = await server.create_room()
    talker = await connect(server, room_id)
    await talker.join("spectator", name="Talker")
    stalled = await asyncio.to_thread(StalledClient, server, room_id)
    await eventually(lambda: server_side(server, stalled) is not None, "the stalled one joined")
    for sent in range(MOST_LINES):
        await talker.send({"type": "chat", "text": LINE})
        if sent % 100 == 99 and refused(caplog):
            return stalled
    await eventually(lambda: refused(caplog), "the stalled client refused as too slow")
    return stalled


def refused(caplog: pytest.LogCaptureFixture) -> bool:
    return any(getattr(r, "refusal", None) == "too_slow" for r in caplog.records)


def server_side(server: LiveServer, client: StalledClient) -> Any | None:
    """uvicorn's protocol of ``client``'s connection, while the server holds it."""
    for protocol in list(server.server.server_state.connections):
        if getattr(protocol, "client", None) == ("127.0.0.1", client.port):
            return protocol
    return None


@pytest.mark.parametrize("fastpath", [True, False], ids=["fastpath", "plain"])
async def test_a_client_reading_again_gets_every_frame_then_4009(
    fastpath: bool,
    make_server: Callable[..., LiveServer],
    connect: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = make_server(fastpath=fastpath, close_timeout=15.0, **LIMITS)
    stalled = await stall_until_refused(server, connect, caplog)
    try:
        frames, whole = await asyncio.to_thread(stalled.read_to_end)
    finally:
        stalled.close()
    assert whole
    *texts, last = frames
    assert last.opcode is Opcode.CLOSE
    assert stalled.protocol.close_rcvd is not None
    assert stalled.protocol.close_rcvd.code == 4009
    assert "does not read" in stalled.protocol.close_rcvd.reason
    assert {frame.opcode for frame in texts} == {Opcode.TEXT}
    messages = [json.loads(bytes(frame.data)) for frame in texts]
    assert messages[0]["type"] == "welcome"
    lines = [m for m in messages if m["type"] == "chat"]
    assert len(lines) > 1000  # the buffers' worth written before the refusal, all of it
    assert all(m["text"] == LINE for m in lines)


async def test_a_client_that_never_reads_again_is_reset_and_holds_nothing(
    make_server: Callable[..., LiveServer],
    connect: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = make_server(close_timeout=0.5, **LIMITS)
    stalled = await stall_until_refused(server, connect, caplog)
    try:
        # Without the reset, the server would hold the socket until the client reads.
        await eventually(
            lambda: server_side(server, stalled) is None, "the server let go of the socket"
        )
        frames, whole = await asyncio.to_thread(stalled.read_to_end)
    finally:
        stalled.close()
    assert not whole or stalled.protocol.close_rcvd is None  # cut off: no 4009 reached it
    assert len(frames) > 1000  # what the kernel had taken before the reset
    assert [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []
