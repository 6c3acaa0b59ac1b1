"""A WebSocket ping sent now, with its own short deadline: is a silent peer still there?

uvicorn pings each connection every ``ping_interval`` and gives it ``ping_timeout`` to answer
(20 s each by default): a peer cut off without a close is found only after up to 40 s. The
heartbeat sweep (server.ws.heartbeat) asks sooner, for one silent connection at a time:
``probe`` brings uvicorn's next keepalive ping forward and gives it ``timeout`` to answer.
uvicorn's own handling does the rest: an answer cancels the deadline and schedules the next
regular ping; none fails the connection with 1011 ("keepalive ping timeout") and closes the
transport, and the app's task sees the disconnect.

Only uvicorn's websockets sans-I/O protocol is probed (``protocol_of``); with any other
server, or the fastpath off, ``probe`` answers False and the caller decides without it.
"""

from __future__ import annotations

import os
from typing import Any

from websockets.protocol import State

from .direct_send import protocol_of
from .raw_send import server_send

__all__ = ["probe"]


def probe(websocket: Any, timeout: float) -> bool:
    """Ping ``websocket``'s peer now, closing the connection with 1011 unless it answers
    within ``timeout`` seconds; False (nothing sent) when that cannot be done here."""
    send = server_send(websocket)
    protocol = protocol_of(send) if send is not None else None
    if protocol is None or not protocol.ping_interval or protocol.ping_interval <= 0:
        return False  # no keepalive to hand the answer back to (uvicorn reschedules it)
    if (
        protocol.disconnected
        or protocol.close_sent
        or protocol.conn.state is not State.OPEN
        or protocol.transport.is_closing()
    ):
        return False
    for timer in (protocol.ping_timer, protocol.pong_timer):
        if timer is not None:
            timer.cancel()
    protocol.ping_timer = None
    # as uvicorn's send_keepalive_ping does: a pong for an older payload is then ignored
    protocol.pending_ping_payload = os.urandom(4)
    protocol.ping_sent_at = protocol.loop.time()
    protocol.conn.send_ping(protocol.pending_ping_payload)
    protocol.transport.write(b"".join(protocol.conn.data_to_send()))
    protocol.pong_timer = protocol.loop.call_later(timeout, protocol.keepalive_timeout)
    return True
