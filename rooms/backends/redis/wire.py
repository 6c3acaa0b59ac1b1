"""The lean Redis intake: a connection's replies parsed by hiredis as the socket delivers them.

redis-py reads one reply through a chain of coroutines (the connection's timeout handling, its
parser, the stream reader): several awaits and frames per reply, on the path of every bus
message. ``RedisWire`` is an ``asyncio.Protocol`` instead: each chunk the socket delivers is fed
to a ``hiredis.Reader``, and every complete reply is handed to ``on_reply`` synchronously, in
``data_received``: no task, no queue, no await per reply. An error reply arrives there as its
exception (``ResponseError``, ``NoScriptError``, ... as redis-py's parser makes them), not
raised: the consumer decides. An exception raised by ``on_reply`` (or a reply hiredis cannot
parse) ends the connection with that exception as its cause.

The connection itself is redis-py's (``take_over``): redis-py connects it and does the handshake
for its URL (AUTH, CLIENT SETNAME and SETINFO, SELECT; TLS for ``rediss://``, unix sockets,
Sentinel's current primary, a Cluster node), then the transport is moved to the wire. The
connection must speak RESP2 (no ``HELLO 3``): RESP3's push replies are not for this reader.

Writes go to the transport at once; ``paused`` says the socket stopped taking them (the peer
does not read) and ``drain`` waits until it does. When the connection ends, ``closed`` gets the
cause as its result (``ConnectionError`` for a peer that closed or a socket error), and the
end is passed on to redis-py's stream, so redis-py's ``disconnect()`` of the connection closes
the wire as well and finishes as usual.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

import hiredis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import InvalidResponse

__all__ = ["RedisWire", "take_over"]

OnReply = Callable[[Any], None]


class RedisWire(asyncio.Protocol):
    """One Redis connection's bytes in both directions (see the module)."""

    __slots__ = (
        "_drained",
        "_parser",
        "_paused",
        "_stream",
        "_transport",
        "closed",
        "on_reply",
    )

    def __init__(
        self,
        transport: asyncio.Transport,
        on_reply: OnReply,
        *,
        parse_error: Callable[[str], Exception],
        encoding: str | None = None,
        errors: str = "strict",
        stream: asyncio.BaseProtocol | None = None,
    ) -> None:
        decoding: dict[str, Any] = {"encoding": encoding, "errors": errors} if encoding else {}
        # gets() answers False while no whole reply is buffered: no RESP2 reply is False.
        self._parser = hiredis.Reader(
            protocolError=InvalidResponse, replyError=parse_error, **decoding
        )
        self._transport = transport
        self._stream = stream
        self._paused = False
        self._drained: asyncio.Future[None] | None = None
        self.on_reply = on_reply
        """Called with each reply, in order; may be replaced at any time."""
        self.closed: asyncio.Future[Exception] = asyncio.get_running_loop().create_future()
        """Done when the connection ended: its result is the cause (never raised)."""

    # -- reading --------------------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        parser = self._parser
        parser.feed(data)
        try:
            reply = parser.gets()
            while reply is not False:
                self.on_reply(reply)
                if self.closed.done():  # on_reply closed the wire: nothing more for it
                    return
                reply = parser.gets()
        except Exception as exc:  # a bad reply, or the consumer's refusal: the end
            self._end(exc)
            self._transport.abort()

    def eof_received(self) -> bool:
        return False  # the transport closes; connection_lost says why

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is None:
            self._end(RedisConnectionError("Connection closed by server."))
        else:
            self._end(RedisConnectionError(f"Error while reading from Redis: {exc}"))
        self._wake()
        if self._stream is not None:  # redis-py's reader and writer see the end too
            stream, self._stream = self._stream, None
            stream.connection_lost(exc)

    def _end(self, cause: Exception) -> None:
        if not self.closed.done():
            self.closed.set_result(cause)

    # -- writing --------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        """The transport's buffer is full: ``drain`` before writing more."""
        return self._paused

    @property
    def closing(self) -> bool:
        return self.closed.done() or self._transport.is_closing()

    def write(self, data: bytes) -> None:
        if self.closing:
            raise RedisConnectionError("the connection to Redis is closed")
        self._transport.write(data)

    async def drain(self) -> None:
        """Wait until the transport takes writes again; ConnectionError if it ended."""
        while self._paused and not self.closed.done():
            if self._drained is None or self._drained.done():
                self._drained = asyncio.get_running_loop().create_future()
            await self._drained
        if self.closed.done():
            raise self.closed.result()

    def pause_writing(self) -> None:
        self._paused = True

    def resume_writing(self) -> None:
        self._paused = False
        self._wake()

    def _wake(self) -> None:
        if self._drained is not None and not self._drained.done():
            self._drained.set_result(None)

    def abort(self) -> None:
        """Drop the connection now, whatever is buffered (a write half done, replies on
        their way): nothing more is read from it."""
        self._end(RedisConnectionError("the connection to Redis was dropped"))
        self._transport.abort()


def take_over(connection: AbstractConnection, on_reply: OnReply) -> RedisWire:
    """Move ``connection``'s socket to a new wire, from now on its only reader and writer.

    ``connection`` is redis-py's, connected and its handshake done, speaking RESP2; replies are
    parsed as its own parser would (the same error classes, decoded as its encoder decodes).
    Raises ConnectionError when it is not connected."""
    reader, writer = connection._reader, connection._writer
    if (
        reader is None
        or writer is None
        or writer.transport.is_closing()
        or reader.at_eof()
        or reader.exception() is not None
    ):
        raise RedisConnectionError("the connection to Redis is not open")
    transport = cast(asyncio.Transport, writer.transport)  # uvloop's are not subclasses
    encoder = connection.encoder
    wire = RedisWire(
        transport,
        on_reply,
        parse_error=connection._parser.parse_error,
        encoding=encoder.encoding if encoder.decode_responses else None,
        errors=encoder.encoding_errors,
        stream=transport.get_protocol(),
    )
    transport.set_protocol(wire)
    # Bytes redis-py's stream read from the socket and nobody consumed (none after a
    # handshake, which reads each of its replies whole): they are the wire's now.
    left = reader._buffer  # type: ignore[attr-defined]
    if left:
        data = bytes(left)
        left.clear()
        wire.data_received(data)
    return wire
