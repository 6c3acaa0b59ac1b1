"""Where each identity's push subscriptions and the server's VAPID key are kept: the seam,
and the memory book (``memory://``); ``rooms.backends.redis.push`` is the Redis one.

A player may allow notifications on several browsers: each is one subscription, keyed by
its endpoint (a browser that subscribes again replaces its own). A player keeps at most
``MAX_PER_PLAYER``; one more replaces the oldest. Subscriptions live as long as identities do
(``PLAYER_TTL`` after the last change), and one the push service says is gone (404, 410) is
removed by the sender. The VAPID key pair signs every push; the first worker to start
stores one and every worker after uses that one, so the browsers' subscriptions (made
against its public half) stay valid through restarts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from rooms.errors import ErrorCode, RoomError
from rooms.players.record import PLAYER_TTL
from rooms.push.subscription import PushSubscription

__all__ = ["MAX_PER_PLAYER", "MemoryPushBook", "PushBook"]

MAX_PER_PLAYER = 8
"""Browsers one identity may have subscribed at once."""


class PushBook(Protocol):
    async def add(self, player_id: str, subscription: PushSubscription) -> None:
        """Keep ``subscription`` for ``player_id`` (replacing the one of the same endpoint,
        else the oldest when the player has ``MAX_PER_PLAYER`` already)."""

    async def remove(self, player_id: str, endpoint: str) -> bool:
        """Forget the player's subscription at ``endpoint``; whether there was one."""

    async def of(self, player_id: str) -> list[PushSubscription]:
        """The player's subscriptions (none: an empty list)."""

    async def vapid_key(self, candidate: str) -> str:
        """The stored VAPID private key; ``candidate`` is stored and returned when there is
        none yet (whoever stores first wins, so every worker signs with one key)."""


class MemoryPushBook:
    def __init__(
        self,
        *,
        ttl: float = PLAYER_TTL,
        max_players: int = 100_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.ttl = ttl
        self.clock = clock
        self._max = max_players
        # player -> (endpoint -> (subscription, added at)), expiry
        self._players: dict[str, tuple[dict[str, tuple[PushSubscription, float]], float]] = {}
        self._vapid: str | None = None
        self._lock = threading.Lock()

    def _live(self, player_id: str, now: float) -> dict[str, tuple[PushSubscription, float]]:
        held = self._players.get(player_id)
        if held is None or held[1] <= now:
            return {}
        return held[0]

    async def add(self, player_id: str, subscription: PushSubscription) -> None:
        with self._lock:
            now = self.clock()
            kept = dict(self._live(player_id, now))
            kept.pop(subscription.endpoint, None)
            while len(kept) >= MAX_PER_PLAYER:
                oldest = min(kept, key=lambda endpoint: kept[endpoint][1])
                del kept[oldest]
            kept[subscription.endpoint] = (subscription, now)
            if player_id not in self._players and len(self._players) >= self._max:
                self._players = {k: v for k, v in self._players.items() if v[1] > now}
                if len(self._players) >= self._max:
                    raise RoomError(
                        ErrorCode.UNAVAILABLE,
                        f"this server holds the most push subscriptions ({self._max}); "
                        "try again later",
                    )
            self._players[player_id] = (kept, now + self.ttl)

    async def remove(self, player_id: str, endpoint: str) -> bool:
        with self._lock:
            held = self._players.get(player_id)
            if held is None or endpoint not in held[0]:
                return False
            del held[0][endpoint]
            if not held[0]:
                del self._players[player_id]
            return True

    async def of(self, player_id: str) -> list[PushSubscription]:
        with self._lock:
            return [sub for sub, _ in self._live(player_id, self.clock()).values()]

    async def vapid_key(self, candidate: str) -> str:
        with self._lock:
            if self._vapid is None:
                self._vapid = candidate
            return self._vapid
