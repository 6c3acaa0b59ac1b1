"""What a session holds once its join landed, shared by the session's halves
(server.ws.session, server.ws.spectating, server.ws.ending)."""

from __future__ import annotations

from dataclasses import dataclass

from rooms import Feed
from rooms.fanout.delayed import DelayedFeed
from rooms.room import JoinReply

__all__ = ["Joined"]


@dataclass(slots=True)
class Joined:
    """A joined connection: its feed of the room, the room's answer to its join (a seat's
    mark, or none for a spectator) and the name it speaks with in chat."""

    feed: Feed
    reply: JoinReply
    name: str
    delayed: DelayedFeed | None = None
    """A spectator of a game watched with a delay: the room reaches it only through this
    (rooms.fanout.delayed), and ``feed``, closed, only answers its commands."""
