"""What a spectator's connection does beyond following the room live: watching a game with
a delay, and guessing the next move.

``Spectating`` is the part of ``Session`` (server.ws.session) that only spectators reach:

- a game watched with a delay (the room's ``watch_delay``): the join hands the spectator a
  delayed listener in place of its feed, and the welcome shows the room as delayed
  (rooms.fanout.delayed);
- a guess of the next move (rooms.guesses), judged and counted by the worker's
  ``GuessDesk``; the session's join puts a live spectator on the desk, its departure takes
  it off (server.ws.ending).

A player's move never passes here.
"""

from __future__ import annotations

from rooms import ErrorCode, Executed, Feed, Hub, RoomError, RoomService
from rooms.fanout.delayed import DelayedFeed
from rooms.guesses import GuessDesk
from rooms.protocol import GuessMessage, dumps, welcome_message

from .connection import Connection
from .joined import Joined

__all__ = ["Spectating"]


class Spectating:
    """A spectator's delayed watch and guesses (see the module); the attributes are the
    session's, set by its constructor."""

    room_id: str
    service: RoomService
    hub: Hub
    conn: Connection
    desk: GuessDesk | None  # spectators' guesses; None: this server takes none
    _joined: Joined | None

    async def _join_delayed(self, feed: Feed, executed: Executed) -> None:
        """A spectator of a game watched with a delay: the delayed listener replaces the
        feed (attached first, so no event falls between), the welcome shows the delayed room
        and nothing it missed (rooms.fanout.delayed)."""
        assert self._joined is not None
        room = executed.room
        delayed = DelayedFeed(self.room_id, self.service, self.conn.send, room.settings.watch_delay)
        await self.hub.attach(self.room_id, delayed)
        self._joined.delayed = delayed
        feed.close()
        await self.hub.detach(self.room_id, feed)
        welcome = welcome_message(self.room_id, self._joined.reply, delayed.view(room), None)
        self.conn.send(dumps(welcome))

    async def _guess(self, message: GuessMessage) -> None:
        """A spectator's guess of the next move (rooms.guesses): judged against the room as
        this worker knows it and counted by the worker's desk; never seen by players. A guess
        that counts is not answered (the split after the move is its answer): a crowd's
        thousand guesses a move cost the worker no thousand frames out. A refused one gets
        its ``error``."""
        assert self._joined is not None
        if self._joined.reply.mark is not None:
            raise RoomError(
                ErrorCode.NOT_A_SPECTATOR, "only spectators guess; players play their moves"
            )
        if self.desk is None:
            raise RoomError(ErrorCode.GUESSES_CLOSED, "this server takes no guesses")
        room = await self.service.current(self.room_id)
        self.desk.guess(self.room_id, self.conn.id, room, message.request, message.version)
