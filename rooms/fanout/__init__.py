"""Fan-out: the worker's hub (one bus subscription per room) and each connection's feed.

A feed hands its connection a room's events in version order, each once.
"""

from __future__ import annotations

from rooms.fanout.feed import Feed
from rooms.fanout.hub import BatchListener, Hub, Listener

__all__ = [
    "BatchListener",
    "Feed",
    "Hub",
    "Listener",
]
