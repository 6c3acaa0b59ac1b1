"""A joined connection's text messages handed to it from uvicorn's ``data_received``.

uvicorn's protocol puts every message into an ``asyncio.Queue``, pauses reading the socket,
and wakes the app's task, which takes the message through Starlette's ``receive`` and
resumes reading: a queue put and get, a dict per message, two changes to the socket's
polling and Starlette's checks, for every move. A session that has joined offers to take
its messages itself (``receive_directly``): ``ReleasingWebSockets`` (the fastpath's
protocol, server.fastpath.uvicorn_protocols) then hands it each text message first, while
nothing waits in the queue. The session takes one only when its reader is idle (waiting on
that empty queue, no message still under way) and handles it in a task of its own; one it
does not take goes through the queue as before, behind what is under way, so a
connection's messages are always handled one at a time, in order, and a client that sends
faster than it is served is still held back by the paused socket.

With another protocol (``--no-fastpath``, another server, a test's stand-in socket)
``receive_directly`` answers False and every message takes the queue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .direct_send import protocol_of
from .raw_send import server_send

__all__ = ["DirectHandler", "receive_directly", "stop_receiving_directly"]

DirectHandler = Callable[[str], bool]
"""Offered a text message: True when it took it (then it is not queued)."""


def _protocol(websocket: Any) -> Any | None:
    send = server_send(websocket)
    protocol = protocol_of(send) if send is not None else None
    if protocol is None or not hasattr(type(protocol), "direct"):
        return None  # uvicorn's own protocol: it queues everything
    return protocol


def receive_directly(websocket: Any, handler: DirectHandler) -> bool:
    """Offer ``websocket``'s text messages to ``handler`` before the queue; False (nothing
    changed) when its protocol cannot."""
    protocol = _protocol(websocket)
    if protocol is None:
        return False
    protocol.direct = handler
    return True


def stop_receiving_directly(websocket: Any) -> None:
    """Every message takes the queue again (and the protocol lets go of the handler)."""
    protocol = _protocol(websocket)
    if protocol is not None:
        protocol.direct = None
