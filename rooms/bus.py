"""The Bus seam: change notifications between workers. The bus is a hint (invariant 4).

A subscriber may miss messages (a dropped connection, an overflowing buffer): receivers
detect the gap by version and re-read the store. Messages are the event texts exactly as
the store logged them, so each event is encoded once and sent as is to every receiver.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["Bus", "Subscription"]


class Subscription(Protocol):
    async def get(self) -> str:
        """The next message on the channel (waits for one)."""

    async def close(self) -> None: ...


class Bus(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def publish(self, room_id: str, message: str) -> None: ...

    async def subscribe(self, room_id: str) -> Subscription:
        """A subscription that receives every message published after this returns."""
