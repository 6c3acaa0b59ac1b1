"""A worker's guess counter: its spectators' guesses and streaks, and the split after a move.

Spectators of a room on this worker are registered here (``watch``) with a way to send to
their connection. A guess is judged against the room (``check_guess``) and gathered; the
guesses gathered within ``flush`` seconds go to the book, which every worker shares, in one
write per room and ply (a crowd guessing costs the store a write per worker, not one per
spectator), so the split is the whole crowd's. The desk hears every
event the worker's hub hands out (``observe``, after the players were served): for a
``moved`` event of a room with spectators here it waits ``settle`` seconds (the guesses
other workers accepted just before they saw the move reach the book meanwhile), reads the
book once, and sends each local spectator the ``guesses`` message: the split, and their own
guess, whether it was right and their streak. Nothing of it ever goes to a player or on the
bus, and the move's own path never waits for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any

from core import MoveRequest
from rooms.common.jsontext import dumps, loads
from rooms.common.tasks import cancel_all
from rooms.errors import ErrorCode, RoomError
from rooms.guesses.book import GuessBook, ply_key
from rooms.guesses.check import cell_key, check_guess
from rooms.room.room import Room

__all__ = ["GUESSES", "GuessDesk"]

log = logging.getLogger("tictactoe.rooms")

GUESSES = "guesses"
"""The type of the message a spectator gets after each move that was guessed at."""

SLICE = 128
"""Spectators sent their split per turn of the event loop (as the hub serves a crowd)."""

_MOVED = '{"type":"moved",'
"""How a ``moved`` event's text starts (rooms.room.events: the tag is encoded first)."""


@dataclass(slots=True)
class _Guesser:
    send: Callable[[str], object]
    key: str | None = None
    """The ply (``ply_key``) of this spectator's open guess (None: none open)."""
    cell: str | None = None
    streak: int = 0
    """Consecutive right guesses; a wrong one starts it again, a ply not guessed keeps it."""


class GuessDesk:
    def __init__(
        self,
        book: GuessBook,
        load: Callable[[str], Awaitable[Room]],
        *,
        settle: float = 0.2,
        flush: float = 0.02,
    ) -> None:
        self._book = book
        self._load = load
        self.settle = settle
        self.flush = flush
        self._gathered: dict[tuple[str, str], dict[str, str]] = {}  # (room, ply) -> cells
        self._flushing: asyncio.TimerHandle | None = None
        self._rooms: dict[str, dict[str, _Guesser]] = {}
        self._seen: dict[str, int] = {}  # room -> the last moved version revealed here
        self._tasks: set[asyncio.Task[None]] = set()
        self.reveals = 0
        """Splits this worker sent out (for tests and metrics)."""

    # -- spectators -----------------------------------------------------------------------

    def watch(self, room_id: str, conn: str, send: Callable[[str], object]) -> None:
        """``conn`` spectates ``room_id`` on this worker: it gets the split after each move."""
        self._rooms.setdefault(room_id, {})[conn] = _Guesser(send)

    def unwatch(self, room_id: str, conn: str) -> None:
        guessers = self._rooms.get(room_id)
        if guessers is None:
            return
        guessers.pop(conn, None)
        if not guessers:
            del self._rooms[room_id]
            self._seen.pop(room_id, None)

    def streak(self, room_id: str, conn: str) -> int:
        guesser = self._rooms.get(room_id, {}).get(conn)
        return guesser.streak if guesser is not None else 0

    def guess(self, room_id: str, conn: str, room: Room, request: MoveRequest, version: int) -> str:
        """Record ``conn``'s guess (replacing an earlier one for the same move); the cell
        guessed (``cell_key``). RoomError when it may not count (rooms.guesses.check)."""
        move = check_guess(room, conn, request, version)
        guesser = self._rooms.get(room_id, {}).get(conn)
        if guesser is None:  # not registered: a spectator of another path (cannot happen)
            raise RoomError(ErrorCode.NOT_JOINED, "join as a spectator before guessing")
        key, cell = ply_key(room.game_number, room.game.ply), cell_key(move)
        self._gathered.setdefault((room_id, key), {})[conn] = cell
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().call_later(self.flush, self._flush)
        guesser.key, guesser.cell = key, cell
        return cell

    def _flush(self) -> None:
        self._flushing = None
        gathered, self._gathered = self._gathered, {}
        for (room_id, key), cells in gathered.items():
            self._spawn(self._write(room_id, key, cells), f"guesses:{room_id}:write")

    async def _write(self, room_id: str, key: str, cells: dict[str, str]) -> None:
        try:
            await self._book.put(room_id, key, cells)
        except RoomError as exc:  # the store is away: these guesses are not counted
            log.warning("room %s: %d guesses lost: %s", room_id, len(cells), exc.message)
        except Exception:
            log.exception("room %s: guesses could not be written", room_id)

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- moves ----------------------------------------------------------------------------

    def observe(self, room_id: str, version: int, text: str) -> None:
        """An event the hub handed out: a move of a room watched here reveals its split."""
        if room_id not in self._rooms or not text.startswith(_MOVED):
            return
        if self._seen.get(room_id, -1) >= version:  # a copy the bus brought back
            return
        self._seen[room_id] = version
        self._spawn(self._reveal(room_id, text), f"guesses:{room_id}")

    async def _reveal(self, room_id: str, text: str) -> None:
        try:
            event = loads(text)
            await asyncio.sleep(self.settle)
            room = await self._load(room_id)
            ply = int(event["ply"])
            # the move's game: the room's, unless a new game began within the settle time
            game_number = room.game_number if room.game.ply >= ply else room.game_number - 1
            key = ply_key(game_number, ply - 1)
            split = await self._book.split(room_id, key)
            for _ in self._send(room_id, key, ply, event, split):
                await asyncio.sleep(0)  # a slice a turn: a move arriving meanwhile goes first
        except RoomError as exc:
            log.info("room %s: no split for a move: %s", room_id, exc.message)
        except Exception:
            log.exception("room %s: the guesses' split failed", room_id)

    def _send(
        self, room_id: str, key: str, ply: int, event: dict[str, Any], split: dict[str, int]
    ) -> Iterator[None]:
        """Send each local spectator their split, yielding after every ``SLICE`` of them."""
        played = f"{event['row']},{event['col']},{event.get('layer', 0)}"
        total = sum(split.values())
        head = dumps(
            {
                "type": GUESSES,
                "ply": ply,
                "move": _cell(played),
                "total": total,
                "right": split.get(played, 0),
                "split": [
                    {**_cell(cell), "count": count}
                    for cell, count in sorted(split.items(), key=lambda item: -item[1])
                ],
            }
        )
        head = head[:-1] + ',"you":'  # one shared text; each spectator's own part after it
        for count, guesser in enumerate(tuple(self._rooms.get(room_id, {}).values()), 1):
            if count % SLICE == 0:
                yield
            guessed = guesser.key == key
            if guessed:
                right = guesser.cell == played
                guesser.streak = guesser.streak + 1 if right else 0
                you = {"guess": _cell(guesser.cell or ""), "right": right}
                guesser.key = guesser.cell = None
            elif total == 0:
                continue  # nobody guessed this move: nothing to show
            else:
                you = {"guess": None, "right": None}
            you["streak"] = guesser.streak
            try:
                guesser.send(head + dumps(you) + "}")
            except Exception:
                log.exception("room %s: a split could not be sent", room_id)
        self.reveals += 1

    async def close(self) -> None:
        if self._flushing is not None:
            self._flushing.cancel()
            self._flushing = None
        await cancel_all(self._tasks)
        self._rooms.clear()
        self._seen.clear()


def _cell(key: str) -> dict[str, int]:
    row, col, layer = (int(part) for part in key.split(","))
    return {"row": row, "col": col, "layer": layer}
