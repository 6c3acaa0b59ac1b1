"""Rated rooms: the game ends that must change ratings, and the change once it was applied.

A rated room (``RoomSettings.pool``) seats only verified identities (``seating``) and takes
nothing back (``offers``). When its game ends other than by an abort, the end's own commit
records a pending entry (``RoomState.rated_end``): the pool, the two player ids in mark order
and the first one's score. Any worker that sees the room with one applies it to the rating book
(rooms.ratings, keyed by room and game number, so twice is once) and commits
``RatingsApplied``, which clears the entry and emits one ``rated`` event with the change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rooms.room.commands import Done, RatingsApplied
from rooms.room.events import Rated
from rooms.room.handled import Handled

if TYPE_CHECKING:
    from rooms.room.state import RoomState

__all__ = ["applied"]


def applied(room: RoomState, command: RatingsApplied, now: float) -> Handled:
    """Clear the pending entry of ``command.game_number`` and tell everyone the change; no
    event when it is not pending (applied already: a repeat, or another worker's)."""
    rest = [p for p in room.rating_pending if p["game_number"] != command.game_number]
    if len(rest) == len(room.rating_pending):
        return Handled(None, Done(None))
    entry = next(p for p in room.rating_pending if p["game_number"] == command.game_number)
    room.rating_pending = rest
    change = {
        "game_number": command.game_number,
        "pool": entry["pool"],
        "rating_change": command.change,
    }
    room.rating_change = change
    version = room.bump(now)
    event = Rated(
        version=version,
        game_number=command.game_number,
        pool=entry["pool"],
        rating_change=command.change,
        due=room.due(),
    )
    return room.changed(event)
