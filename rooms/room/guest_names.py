"""The name a player gets who did not give one: neutral ("Guest 4821"), never the seat's mark.

A mark changes hands at a rematch, so a name made from it ("Player O") would soon name the
wrong person; a guest number stays with the player's seat for the whole series.
"""

from __future__ import annotations

import secrets

__all__ = ["guest_name"]

_FIRST, _COUNT = 1000, 9000  # four digits: short to read, rarely the same twice in a room


def guest_name(taken: frozenset[str] = frozenset()) -> str:
    """A guest name, not one of ``taken`` (the names already seated in the room)."""
    while True:
        name = f"Guest {_FIRST + secrets.randbelow(_COUNT)}"
        if name not in taken:
            return name
