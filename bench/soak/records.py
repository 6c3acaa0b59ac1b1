"""Reading each played room's record at the end of a soak (bench.soak.check judges it).

From the store itself when the soak knows its URL (the Redis it started, or ``--redis-url``):
the stored room decoded as every worker decodes it (rooms.protocol), so the record holds
the moves in play order, the version each ``move_id`` landed at (the seats' idempotency
maps) and the game's status. Without a store URL (``--target`` alone), from the public
snapshot ``GET /api/rooms/{id}``, which has no per-move versions.
"""

from __future__ import annotations

import asyncio
from types import TracebackType

from rooms.backends import Backend, open_backend
from rooms.errors import ErrorCode, RoomError
from rooms.protocol import decode_room

from .check import Cell, StoredGame
from .game import http_call
from .tally import Targets

__all__ = ["RecordReader"]

READ_TRIES = 60
"""Store reads of one room tried, a second apart (the store may still be coming back)."""


class RecordReader:
    """Reads rooms' records, from the store at ``store_url``, else over HTTP."""

    def __init__(self, targets: Targets, store_url: str | None) -> None:
        self.targets = targets
        self.store_url = store_url
        self._backend: Backend | None = None

    @property
    def source(self) -> str:
        """Where records come from, for the report."""
        return "store" if self.store_url is not None else "snapshot"

    async def __aenter__(self) -> RecordReader:
        if self.store_url is not None:
            self._backend = open_backend(self.store_url)
            await self._backend.store.open()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._backend is not None:
            await self._backend.store.close()
            self._backend = None

    async def read(self, room_id: str) -> StoredGame | None:
        """The room's game as stored; None when the store has no such room."""
        if self._backend is None:
            return await self._snapshot(room_id)
        for attempt in range(READ_TRIES):
            try:
                stored = await self._backend.store.load(room_id)
                break
            except (OSError, TimeoutError, RoomError) as exc:
                retry = not isinstance(exc, RoomError) or exc.code is ErrorCode.UNAVAILABLE
                if not retry or attempt == READ_TRIES - 1:
                    raise
                await asyncio.sleep(1.0)
        if stored is None:
            return None
        room = decode_room(stored.data)
        marks = room.rules.marks
        cells: tuple[Cell, ...] = tuple(
            (marks[index % len(marks)], move.row, move.col)
            for index, move in enumerate(room.game.history)
        )
        versions = {move_id: v for seat in room.seats for move_id, v in seat.moves.items()}
        return StoredGame(cells, versions, room.status.value)

    async def _snapshot(self, room_id: str) -> StoredGame:
        data = await http_call(self.targets, "GET", f"/api/rooms/{room_id}", None, 200)
        cells = tuple((str(m["mark"]), int(m["row"]), int(m["col"])) for m in data["moves"])
        return StoredGame(cells, None, str(data["status"]))
