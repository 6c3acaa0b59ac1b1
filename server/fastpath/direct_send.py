"""A text frame written straight to the socket, framed once for all its receivers.

A server's frame is never masked (RFC 6455, 5.1) and, without an extension (per-message
compression is off), its bytes depend on the text alone: ``frame_of`` builds them once
with websockets' own serializer, and every connection of a room that can take them at
once gets the same ``bytes`` written to its transport, instead of each paying for the
ASGI message, uvicorn's ``send``, the encode and the framing again.

``transport_ready`` gives the transport only when uvicorn's own ``send`` would have written
the frame at once without suspending (the connection open on both layers, nothing paused,
no fragmented message or extension, no close sent); otherwise it answers None and the
caller goes through the ASGI ``send``, which waits, raises or closes as it always does.
``protocol_of`` finds uvicorn's websockets sans-I/O protocol behind a connection's ASGI
``send``, or None for any other server.

``close_now`` queues a close frame behind what the transport holds even when it is paused:
uvicorn's ``send`` waits for the socket to take frames again before it writes the close,
so a client that stopped reading never got its 4009 (its close timed out unwritten, and
the connection dropped: 1006). Written at once, the close reaches a client that resumes
reading within the timeout, after every frame sent before it; one that does not is reset
then, so it cannot hold the socket and its buffers forever.
"""

from __future__ import annotations

from typing import Any

from websockets.frames import Frame, Opcode
from websockets.protocol import State

try:  # the protocol uvicorn picks when websockets >= 14 is installed (cli/serve.py)
    from uvicorn.protocols.websockets.websockets_sansio_impl import (
        WebSocketsSansIOProtocol as _SansIO,
    )

    _SANS_IO: type | None = _SansIO
except ImportError:  # pragma: no cover - an older uvicorn: every frame takes the ASGI send
    _SANS_IO = None

__all__ = [
    "close_now",
    "frame_of",
    "protocol_of",
    "transport_ready",
]


class _Framer:
    """``frame_of``: the last frames, kept by the identity of their texts (see below)."""

    __slots__ = ("_frame", "_recent", "_text")

    KEPT = 8
    """Frames kept besides the last: a crowd's listener may be owed several events at once."""

    def __init__(self) -> None:
        self._text = ""
        self._frame = Frame(Opcode.TEXT, b"").serialize(mask=False)
        self._recent: dict[int, tuple[str, bytes]] = {}

    def __call__(self, text: str) -> bytes:
        """The unmasked, uncompressed text frame of ``text``, as websockets serializes it.

        The hub hands the same ``str`` object to every listener of an event, one after the
        other, so keeping the last frame by the identity of its text frames a fan-out once;
        a few more are kept for listeners handed several events in turn (rooms.fanout.hub).
        (Identity, not equality: comparing two long texts would cost what framing costs.
        A kept text cannot be freed, so its identity cannot pass to another text.)"""
        if text is self._text:
            return self._frame
        kept = self._recent.get(id(text))
        if kept is not None and kept[0] is text:
            frame = kept[1]
        else:
            frame = Frame(Opcode.TEXT, text.encode()).serialize(mask=False)
            recent = self._recent
            recent[id(text)] = (text, frame)
            if len(recent) > self.KEPT:
                del recent[next(iter(recent))]  # the oldest kept
        self._text, self._frame = text, frame
        return frame


frame_of = _Framer()


def protocol_of(send: object) -> Any | None:
    """uvicorn's sans-I/O protocol behind a connection's ASGI ``send`` (a bound method of
    it), or None for any other server (then every frame takes the ASGI ``send``)."""
    protocol = getattr(send, "__self__", None)
    if _SANS_IO is None or not isinstance(protocol, _SANS_IO):
        return None
    return protocol


def transport_ready(protocol: Any) -> Any | None:
    """``protocol``'s transport when uvicorn's ``send`` would write a frame to it at once,
    else None (the caller then goes through the ASGI ``send``, which waits, raises or
    closes as it always does). server.ws.connection writes ``frame_of(text)`` to it itself:
    a crowd's fan-out makes this call once per spectator."""
    connection = protocol.conn
    if (
        protocol.disconnected
        or protocol.close_sent
        or not protocol.handshake_complete
        or protocol.initial_response is not None
        or not protocol.writable.is_set()
        or connection.state is not State.OPEN
        or connection.expect_continuation_frame
        or connection.extensions
        or connection.writes
    ):
        return None
    transport = protocol.transport
    if transport.is_closing():
        return None
    return transport


def close_now(protocol: Any, code: int, reason: str, timeout: float) -> bool:
    """Write the close frame behind what ``protocol``'s transport holds, without waiting for
    it to drain (uvicorn's ``websocket.close``, but for a paused socket); the connection is
    reset if the peer has not read it all within ``timeout`` seconds. False (nothing
    written) when the connection is no longer open or already closing."""
    connection = protocol.conn
    transport = protocol.transport
    if (
        protocol.disconnected
        or protocol.close_sent
        or not protocol.handshake_complete
        or connection.state is not State.OPEN
        or transport.is_closing()
    ):
        return False
    protocol.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
    connection.send_close(code, reason)
    transport.write(b"".join(connection.data_to_send()))
    protocol.close_sent = True
    if protocol.read_paused:  # the peer's close reply must be read
        protocol.read_paused = False
        transport.resume_reading()
    protocol.close_timer = protocol.loop.call_later(timeout, _give_up, protocol)
    return True


def _give_up(protocol: Any) -> None:
    """The close handshake timed out: close, or reset when the peer has not even read what
    was written (a close would wait for it forever)."""
    protocol.close_timer = None
    transport = protocol.transport
    if transport.get_write_buffer_size():
        transport.abort()
    else:
        transport.close()
