"""What a room command did, and the room's status: plain values the room's modules share.

Kept apart from ``room`` so that its lifecycle modules can import them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rooms.room.commands import Reply
from rooms.room.events import Event

__all__ = ["Handled", "Status"]


class Status(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(slots=True)
class Handled:
    """What a command did: the event of the change (None: nothing changed) and the reply.

    Read-only by convention, not frozen: one is built per command and a frozen dataclass's
    ``__init__`` is markedly slower than a plain one's; the event and the reply are frozen."""

    event: Event | None
    reply: Reply
