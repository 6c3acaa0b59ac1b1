"""How a session ends: the closes it makes itself, the read it stops when the connection
is ended from outside, and the departure it records after.

``Ending`` is the part of ``Session`` (server.ws.session) that ends it:

- closed with 1012 so that the client resumes (on any worker) instead of taking an error
  for final: this worker's presence lease was lost (``_lease_lost``); the room no longer
  holds the joined connection, another worker having evicted it (``_evicted``); a join
  that may have landed failed (``_rejoin_afresh``);
- closed with 1011 when a client that keeps a heartbeat went silent (``silent``, called by
  server.ws.heartbeat);
- ended from outside (too slow, lease lost, silent): ``_stop_reading`` cancels the read in
  progress, and ``Session.run`` goes on to the departure;
- the departure (``_leave``): the feeds detached, a spectator off the guess desk, and the
  Leave recorded through presence (rooms.presence.lease), deliberate when a ``leave`` was
  received.
"""

from __future__ import annotations

import asyncio
import logging

from starlette.websockets import WebSocket

from rooms import Hub, Presence
from rooms.guesses import GuessDesk

from ..fastpath.probe import probe
from ..metrics import edge as metrics
from .close_codes import CloseCode
from .connection import Connection
from .joined import Joined

__all__ = ["Ending"]

log = logging.getLogger("tictactoe.server")


class Ending:
    """A session's closes and departure (see the module); the attributes are the session's,
    set by its constructor."""

    room_id: str
    websocket: WebSocket
    conn: Connection
    hub: Hub
    presence: Presence
    desk: GuessDesk | None
    _joined: Joined | None
    _deliberate: bool  # a leave was received: the departure is a leave
    _task: asyncio.Task[object] | None  # the reader's (the ASGI task)
    _stopped: bool  # ended from outside: the cancel of the read is ours

    def _lease_lost(self) -> None:
        """This worker's lease lapsed: another may have evicted this connection already, so
        the client resumes (on any worker) instead of trusting it."""
        self.conn.end(CloseCode.SERVICE_RESTART, "presence lease lost; resume")

    def _evicted(self) -> None:
        """The room no longer holds this joined connection (its command was refused
        ``not_joined``): another worker evicted it, this one's lease having lapsed (cut off
        from Redis) before it noticed. Nothing was applied; the client resumes and sends it
        again, as after a lost lease (an error here would read as a refusal for good)."""
        self._lease_lost()

    def _rejoin_afresh(self) -> None:
        """A join that may have landed failed (``JOIN_REFUSED_FOR_SURE``): close, so that the
        client joins again on a new connection, with its token or join key."""
        self.conn.end(CloseCode.SERVICE_RESTART, "the join may have landed; join again")

    def silent(self, timeout: float) -> None:
        """The client keeps a heartbeat and has sent nothing for ``timeout`` seconds: ping
        it, closing with 1011 unless it answers in as long; where no ping can be sent, close
        now (server.ws.heartbeat)."""
        if self.conn.ended or probe(self.websocket, timeout):
            return
        self.conn.end(CloseCode.INTERNAL_ERROR, "no heartbeat: the client went silent")

    def _stop_reading(self) -> None:
        """The connection was ended: stop the read in progress, unless it is the reader
        itself that ended it (it returns by itself). A message taken directly was received:
        it is handled to its end (a ``leave`` among them is recorded as one), and the
        departure waits for it (``Session.run``)."""
        if self._task is not None and asyncio.current_task() is not self._task:
            self._stopped = True
            self._task.cancel()

    async def _leave(self) -> None:
        joined, self._joined = self._joined, None
        if joined is None:
            return
        metrics.left(joined.reply.mark is not None)
        joined.feed.close()
        if self.desk is not None:
            self.desk.unwatch(self.room_id, self.conn.id)
        try:
            await self.hub.detach(self.room_id, joined.feed)
            if joined.delayed is not None:
                joined.delayed.close()
                await self.hub.detach(self.room_id, joined.delayed)
        except Exception:
            log.exception("room %s: could not unsubscribe a connection", self.room_id)
        # Records the Leave (retried at the next heartbeats if the store cannot take it
        # now) and takes the room out of this worker's index after its last connection.
        await self.presence.leave(
            self.room_id,
            self.conn.id,
            deliberate=self._deliberate,
            spectator=joined.reply.mark is None,
        )
