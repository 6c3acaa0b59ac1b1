"""The Redis lobby: a sorted set of listed room ids, kept consistent by ordering and repair.

The commit script cannot update it: on a Cluster the lobby key lives on another slot than the
room, and a script may not touch two. So, on one Redis and a Cluster alike:

- Each room's hash holds the truth, ``l`` (listed), written by the atomic commit.
- The lobby set is an index over it, written in a second step ordered so that a crash between
  the steps is harmless: a new public room is added BEFORE its record is created, and removed
  AFTER the commit that unlists it. A crash can leave an extra entry (a "zombie"), never a
  missing one (a "hidden" room).
- Reading repairs: entries whose room is gone or no longer listed are shown to nobody and
  removed (one without a room is spared for ``grace`` seconds, as its room may be on its way),
  and a few of the oldest entries are swept on every read.

Entries are scored by creation time (the creating worker's clock), newest first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rooms.backends.redis.connect import RedisClient, text
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.store import StoredRoom

__all__ = ["read_lobby"]

MAX_PAGES = 8
SWEEP = 8


async def _fetch(
    client: RedisClient, layout: KeyLayout, room_ids: Sequence[str]
) -> list[list[Any]]:
    """``[version, data, listed]`` of each room in one round trip (a pipeline). ``data`` is
    the field ``d``: the room without its archive of earlier games, which the listing does
    not show and so never reads (rooms.backends.redis.archive)."""
    async with client.pipeline(transaction=False) as pipe:
        for room_id in room_ids:
            pipe.hmget(layout.room(room_id).room, ["v", "d", "l"])
        return list(await pipe.execute())


async def _check(
    client: RedisClient, layout: KeyLayout, reply: Any, *, oldest_alive: float
) -> tuple[list[tuple[str, StoredRoom]], list[str]]:
    """The live listed rooms among the ``(member, score)`` pairs of a ZRANGE WITHSCORES
    ``reply``, and the ids of the dead entries (removed from the lobby)."""
    entries = [(text(member), float(score)) for member, score in reply]
    rows = await _fetch(client, layout, [room_id for room_id, _ in entries])
    alive: list[tuple[str, StoredRoom]] = []
    dead: list[str] = []
    for (room_id, score), (version, data, listed) in zip(entries, rows, strict=True):
        if version is None or data is None:
            if score < oldest_alive:  # a younger entry's room may still be being created
                dead.append(room_id)
        elif text(listed) != "1":
            dead.append(room_id)
        else:
            alive.append((room_id, StoredRoom(int(version), text(data))))
    if dead:
        await client.zrem(layout.lobby, *dead)
    return alive, dead


async def read_lobby(
    client: RedisClient, layout: KeyLayout, limit: int, *, now: float, grace: float
) -> list[StoredRoom]:
    """Up to ``limit`` listed rooms, newest first, repairing the entries it reads."""
    if limit <= 0:
        return []
    page = max(limit, 16)
    found: list[StoredRoom] = []
    seen: set[str] = set()
    start = 0
    exhausted = False
    for _ in range(MAX_PAGES):
        entries = await client.zrevrange(layout.lobby, start, start + page - 1, withscores=True)
        if not entries:
            exhausted = True
            break
        alive, dead = await _check(client, layout, entries, oldest_alive=now - grace)
        for room_id, stored in alive:
            if room_id not in seen:
                seen.add(room_id)
                found.append(stored)
        if len(entries) < page:
            exhausted = True
            break
        if len(found) >= limit:
            break
        start += page - len(dead)  # removed entries no longer take a rank
    if not exhausted:
        oldest = await client.zrange(layout.lobby, 0, SWEEP - 1, withscores=True)
        if oldest:
            await _check(client, layout, oldest, oldest_alive=now - grace)
    return found[:limit]
