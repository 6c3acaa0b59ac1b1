"""A worker's presence: its lease, where it holds connections, and the sweep of dead workers."""

from __future__ import annotations

from rooms.presence.lease import LeaseLost, LostHandler, Presence
from rooms.presence.sweep import Sweeper

__all__ = [
    "LeaseLost",
    "LostHandler",
    "Presence",
    "Sweeper",
]
