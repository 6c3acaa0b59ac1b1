"""A relay in front of a live server that checks every WebSocket frame against
docs/asyncapi.yaml, for processes the tests cannot look inside (``tictactoe bot``).

It listens on a free loopback port and relays each TCP connection to the server byte for
byte, so the client meets the real server: its handshakes, close codes and HTTP answers.
A connection whose request is a WebSocket upgrade to a channel of the spec is also tapped:
both directions' bytes are parsed into frames (websockets' own frame parser), and each text
message is validated against what the channel's operations say the client sends
(``send``) or receives (``receive``). ``counts`` holds the messages seen per (channel,
direction); ``invalid`` every message that is not in the spec, with the reason. Other
requests (the HTTP API) pass through unread.

The upgrade request goes without its ``Sec-WebSocket-Extensions`` offer: a compressed
stream cannot be read by a tap that did not take part in the negotiation.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from collections.abc import Generator
from dataclasses import dataclass

from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from tests.support.asyncapi import Channel, best, channel_of

__all__ = ["Invalid", "SpecRelay"]

CHUNK = 65536


@dataclass(frozen=True)
class Invalid:
    """A message that is not in the spec: where it went, what it was, and why not."""

    channel: str
    direction: str
    text: str
    reason: str


class _Tap:
    """One direction of a WebSocket connection, parsed and validated as its bytes pass."""

    def __init__(self, relay: SpecRelay, channel: Channel, direction: str) -> None:
        self.relay, self.channel, self.direction = relay, channel, direction
        self.reader = StreamReader()
        self.parser = self._messages()
        next(self.parser)  # up to the first read: nothing has come yet
        self.broken = False

    def feed(self, data: bytes) -> None:
        if self.broken:
            return
        self.reader.feed_data(data)
        try:
            next(self.parser)
        except Exception as exc:  # a frame the parser refuses: no more frames to read
            self.broken = True
            self.relay.record(self.channel.name, self.direction, repr(data[:200]), repr(exc))

    def _messages(self) -> Generator[None, None, None]:
        # what a client sends is masked (RFC 6455, 5.3); what it receives is not
        mask = self.direction == "send"
        parts: list[Frame] = []
        while True:
            frame = yield from Frame.parse(self.reader.read_exact, mask=mask)
            if frame.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
                parts.append(frame)
                if frame.fin:
                    self.relay.check(self.channel, self.direction, parts)
                    parts = []


class SpecRelay:
    def __init__(self, server_port: int) -> None:
        self.server_port = server_port
        self.counts: Counter[tuple[str, str]] = Counter()
        self.invalid: list[Invalid] = []
        self.port = 0
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> SpecRelay:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._connections):
            task.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)

    async def __aenter__(self) -> SpecRelay:
        return await self.start()

    async def __aexit__(self, *_: object) -> None:
        await self.stop()

    def record(self, channel: str, direction: str, text: str, reason: str) -> None:
        self.invalid.append(Invalid(channel, direction, text[:400], reason))

    def check(self, channel: Channel, direction: str, parts: list[Frame]) -> None:
        self.counts[channel.name, direction] += 1
        data = b"".join(bytes(part.data) for part in parts)
        try:
            if parts[0].opcode is not Opcode.TEXT:
                raise ValueError("a binary frame: the spec's messages are JSON text")
            message = json.loads(data.decode())
        except ValueError as exc:
            self.record(channel.name, direction, repr(data[:200]), str(exc))
            return
        errors = list(channel.validators[direction].iter_errors(message))
        if errors:
            self.record(channel.name, direction, data.decode(), best(errors))

    def saw(self) -> set[tuple[str, str]]:
        """The (channel, direction) pairs the relay saw messages on."""
        return set(self.counts)

    async def _relay(
        self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter
    ) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        server_out: asyncio.StreamWriter | None = None
        try:
            head = await client_in.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            path = lines[0].split(" ")[1] if " " in lines[0] else "/"
            upgrade = any(
                line.lower().startswith("upgrade:") and "websocket" in line.lower()
                for line in lines
            )
            channel = channel_of(path) if upgrade else None
            if channel is not None:
                kept = [
                    line
                    for line in lines
                    if not line.lower().startswith("sec-websocket-extensions:")
                ]
                head = "\r\n".join(kept).encode("latin-1")
            server_in, server_out = await asyncio.open_connection("127.0.0.1", self.server_port)
            server_out.write(head)
            up = down = None
            if channel is not None:
                answer = await server_in.readuntil(b"\r\n\r\n")
                client_out.write(answer)
                if answer.split(b" ", 2)[1:2] == [b"101"]:
                    up, down = _Tap(self, channel, "send"), _Tap(self, channel, "receive")
            await asyncio.gather(
                _pump(client_in, server_out, up), _pump(server_in, client_out, down)
            )
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass  # a connection cut: the client or the server sees it as it is
        finally:
            self._connections.discard(task)
            for writer in (client_out, server_out):
                if writer is not None:
                    writer.close()


async def _pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter, tap: _Tap | None) -> None:
    """Bytes from ``source`` to ``sink`` until the source ends, which then ends the sink."""
    try:
        while data := await source.read(CHUNK):
            if tap is not None:
                tap.feed(data)
            sink.write(data)
            await sink.drain()
    finally:
        with contextlib.suppress(OSError):
            sink.close()
