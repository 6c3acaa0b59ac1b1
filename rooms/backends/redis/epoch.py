"""Telling a room Redis lost from one that expired: the dataset's *epoch*.

The dataset carries a random id under ``<prefix>:epoch``, set by the first store that finds none
(``SET NX``). A store remembers its epoch and the epoch it saw each room in; when a known room
is missing it rereads the epoch, and a changed or absent one means Redis lost its data: ``load``
raises ``RoomError(room_not_found, "... was lost ...")`` instead of returning None (an unchanged
epoch: the room expired). Nothing recreates a lost room (the commit script refuses a room that
does not exist), so a game is never silently reset. ``ping`` rereads it too.

Limits: only rooms a worker had seen are reported lost; an RDB-only Redis can come back with
OLDER data under the same epoch (run ``appendonly yes``); a live ``FLUSHALL`` is noticed only
when the epoch is reread. One epoch per epoch key: one for one Redis, one per hash slot on a
Cluster (rooms.backends.redis.cluster.store).
"""

from __future__ import annotations

import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from rooms.backends.redis.connect import RedisClient, text
from rooms.errors import ErrorCode, RoomError

__all__ = ["Epochs"]

log = logging.getLogger("tictactoe.rooms")


class Epochs:
    """The epochs one store works in (per epoch key) and the rooms it saw in each."""

    def __init__(self, client: RedisClient, key_of: Callable[[str], str], *, remember: int) -> None:
        self._client = client
        self.key_of = key_of
        """The epoch key that dates a room's data."""
        self.current: dict[str, str] = {}  # epoch key -> the epoch last read there
        self._known: OrderedDict[str, str] = OrderedDict()  # room id -> epoch seen in
        self._remember_max = remember
        self.losses = 0
        """How many times this store found that Redis had lost its data."""

    async def confirm(self, key: str) -> str:
        """The epoch under ``key`` (created if absent); records a loss when it changed."""
        fresh = secrets.token_hex(8)
        old = await self._client.set(key, fresh, nx=True, get=True)
        return self.adopt(key, old, fresh)

    def adopt(self, key: str, old: Any, fresh: str) -> str:
        """The reply of ``SET key fresh NX GET``: the epoch now in force under ``key``."""
        current = fresh if old is None else text(old)
        known = self.current.get(key)
        if known is not None and current != known:
            self.losses += 1
            log.error(
                "Redis lost its data (%s %s is now %s): it restarted without persistence "
                "or was flushed; rooms from before are gone",
                key,
                known,
                current,
            )
        self.current[key] = current
        return current

    def seen(self, room_id: str) -> None:
        epoch = self.current.get(self.key_of(room_id))
        if epoch is None:
            return
        self._known[room_id] = epoch
        self._known.move_to_end(room_id)
        while len(self._known) > self._remember_max:
            self._known.popitem(last=False)

    async def check_lost(self, room_id: str) -> None:
        """Called inside a guard when ``room_id`` is missing: raise if Redis lost it."""
        seen_in = self._known.pop(room_id, None)
        if seen_in is None:
            return
        if await self.confirm(self.key_of(room_id)) != seen_in:
            self._known[room_id] = seen_in  # keep saying so, not "no such room" next time
            raise RoomError(
                ErrorCode.ROOM_NOT_FOUND,
                f"room {room_id!r} was lost: the room store (Redis) restarted without its "
                "data; start a new room",
            )
