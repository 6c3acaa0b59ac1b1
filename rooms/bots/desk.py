"""The bots' desk: what waits for each bot (challenges, seats), who is online, games a day.

Shared by every worker through the store, so a challenge made on one worker reaches a bot
connected to another: each bot has a small mapping of entries (``c:<challenge id>`` a
challenge waiting for an answer, ``s:<room id>`` a seat of a game it plays, ``o:<challenge
id>`` the answer a challenge got), which the worker holding the bot's socket reads every
``bot_poll`` seconds (server.bot_api.socket). ``take`` is one atomic read-and-delete, so of
two answers to one challenge (two sockets, two workers) exactly one wins. ``BotDesk`` is the
seam; ``MemoryBotDesk`` serves ``memory://`` and ``rooms.backends.redis.bot_desk`` Redis.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from rooms.errors import ErrorCode, RoomError

__all__ = ["MAX_ENTRIES", "BotDesk", "MemoryBotDesk"]

MAX_ENTRIES = 256
"""Entries a bot's desk holds at most: a challenge to a bot whose desk is full is ``busy``."""
ENTRY_TTL = 24 * 3600.0
"""Seconds a bot's entries live after the last write to them (Redis)."""


class BotDesk(Protocol):
    async def put(self, bot_id: str, key: str, value: str) -> None:
        """Set the entry ``key``; ``busy`` when the desk holds ``MAX_ENTRIES`` others."""

    async def take(self, bot_id: str, key: str) -> str | None:
        """Remove the entry ``key`` and return it, in one step (None: it was not there)."""

    async def entries(self, bot_id: str) -> dict[str, str]:
        """Every entry of the bot."""

    async def count_day(self, bot_id: str, day: str, add: int) -> int:
        """Add ``add`` to the bot's count for ``day`` (``2026-12-07``) and return it."""

    async def set_online(self, bot_id: str, until: float) -> None:
        """The bot is online until ``until`` (server time) unless told again."""

    async def set_offline(self, bot_id: str) -> None: ...

    async def online(self, now: float, limit: int) -> list[str]:
        """Bots online at ``now`` (at most ``limit``)."""

    async def is_online(self, bot_id: str, now: float) -> bool: ...


class MemoryBotDesk:
    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self._entries: dict[str, dict[str, str]] = {}
        self._days: dict[tuple[str, str], int] = {}
        self._online: dict[str, float] = {}
        self._clock = clock

    async def put(self, bot_id: str, key: str, value: str) -> None:
        entries = self._entries.setdefault(bot_id, {})
        if key not in entries and len(entries) >= MAX_ENTRIES:
            raise RoomError(ErrorCode.BUSY, f"bot {bot_id!r:.40} has too much waiting for it")
        entries[key] = value

    async def take(self, bot_id: str, key: str) -> str | None:
        return self._entries.get(bot_id, {}).pop(key, None)

    async def entries(self, bot_id: str) -> dict[str, str]:
        return dict(self._entries.get(bot_id, {}))

    async def count_day(self, bot_id: str, day: str, add: int) -> int:
        # only today's and yesterday's counts are ever asked for: drop the others
        if len(self._days) > 4 * max(1, len(self._entries)):
            self._days = {k: v for k, v in self._days.items() if k[1] >= day}
        count = self._days.get((bot_id, day), 0) + add
        self._days[(bot_id, day)] = count
        return count

    async def set_online(self, bot_id: str, until: float) -> None:
        self._online[bot_id] = until

    async def set_offline(self, bot_id: str) -> None:
        self._online.pop(bot_id, None)

    async def online(self, now: float, limit: int) -> list[str]:
        self._online = {bot: until for bot, until in self._online.items() if until > now}
        return sorted(self._online)[:limit]

    async def is_online(self, bot_id: str, now: float) -> bool:
        return self._online.get(bot_id, 0.0) > now
