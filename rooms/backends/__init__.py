"""Where rooms live and how workers hear of changes: the seams and ``open_backend(url)``.

The seams are the store, bus, presence registry and quick-play queue, each with a memory backend
here and a Redis one in ``redis``; the player directory's seam and memory twin are in
``rooms.players``, its Redis one in ``redis.players``.
"""

from __future__ import annotations

from rooms.backends.bus import Bus, Subscription
from rooms.backends.memory import MemoryBus, MemoryStore
from rooms.backends.open import Backend, BackendOptions, open_backend, redact_url
from rooms.backends.queue import MemoryQueue, QuickPlayQueue
from rooms.backends.registry import MemoryRegistry, Registry
from rooms.backends.store import Store, StoredRoom, Swapped

__all__ = [
    "Backend",
    "BackendOptions",
    "Bus",
    "MemoryBus",
    "MemoryQueue",
    "MemoryRegistry",
    "MemoryStore",
    "QuickPlayQueue",
    "Registry",
    "Store",
    "StoredRoom",
    "Subscription",
    "Swapped",
    "open_backend",
    "redact_url",
]
