"""The player directory of one process (``memory://``): records in a dict, behind a lock.

Each record is the same flat mapping a Redis hash holds (``rooms.players.record``), with its
expiry beside it, so both directories decode alike. A process restart forgets every identity,
as it forgets every room. The directory is bounded (``max_players``): when it is full of live
identities a create is ``unavailable``, as a new room is when the memory store is full.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from rooms.errors import ErrorCode, RoomError
from rooms.players.directory import Directory
from rooms.players.record import PLAYER_TTL

__all__ = ["MemoryDirectory"]


class MemoryDirectory(Directory):
    def __init__(
        self,
        *,
        ttl: float = PLAYER_TTL,
        max_players: int = 100_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(ttl=ttl, clock=clock)
        self.max_players = max_players
        self._records: dict[str, tuple[dict[str, str], float]] = {}  # fields, expiry
        self._lock = threading.Lock()

    async def _insert(self, player_id: str, fields: dict[str, str]) -> bool:
        with self._lock:
            now = self.clock()
            if self._live(player_id, now) is not None:
                return False
            if len(self._records) >= self.max_players:
                # the only sweep: expired records go when room is needed (rare, and whole)
                self._records = {k: v for k, v in self._records.items() if v[1] > now}
                if len(self._records) >= self.max_players:
                    raise RoomError(
                        ErrorCode.UNAVAILABLE,
                        f"this server holds its most player identities ({self.max_players}); "
                        "try again later",
                    )
            self._records[player_id] = (dict(fields), now + self.ttl)
            return True

    async def _read(self, player_id: str) -> dict[str, str] | None:
        with self._lock:
            fields = self._live(player_id, self.clock())
            return dict(fields) if fields is not None else None

    async def _update(
        self, player_id: str, secret_hash: str, seen: float, name: str | None
    ) -> bool:
        with self._lock:
            now = self.clock()
            fields = self._live(player_id, now)
            if fields is None or fields.get("h") != secret_hash:
                return False
            fields["s"] = repr(seen)
            if name is not None:
                fields["n"] = name
            self._records[player_id] = (fields, now + self.ttl)
            return True

    async def _set_token(self, player_id: str, token_hash: str) -> bool:
        with self._lock:
            now = self.clock()
            fields = self._live(player_id, now)
            if fields is None or fields.get("b") != "1":
                return False
            fields["t"] = token_hash
            self._records[player_id] = (fields, now + self.ttl)
            return True

    def _live(self, player_id: str, now: float) -> dict[str, str] | None:
        held = self._records.get(player_id)
        if held is None or held[1] <= now:
            return None
        return held[0]

    def __len__(self) -> int:
        return len(self._records)
