"""A worker's guess counter: its spectators' guesses and streaks, and the split after a move.

Spectators of a room on this worker are registered here (``watch``) with a way to send to
their connection. A guess is judged against the room (``check_guess``) and kept in memory,
on the guesser: nothing is written, sent or answered per guess. The desk hears every event
the worker's hub hands out (``observe``, after the players were served): for a ``moved``
event of a room with spectators here it adds this worker's tally of that move (cell -> how
many of its spectators guessed it) to the book, which every worker shares, in one write (a
crowd guessing costs the store a write per worker and move, not one per guess), waits
``settle`` seconds (the tallies of other workers that saw the move a moment later reach the
book meanwhile), reads the book once, and sends each local spectator the ``guesses``
message: the split, and their own guess, whether it was right and their streak. Nothing of
it ever goes to a player or on the bus, and the move's own path never waits for it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
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
        name: str | None = None,
    ) -> None:
        self._book = book
        self._load = load
        self.settle = settle
        self.name = name if name is not None else secrets.token_hex(8)
        """This desk's name in the book: its tallies replace each other, never another's."""
        self._rooms: dict[str, dict[str, _Guesser]] = {}
        self._open: dict[str, str] = {}  # room -> the ply (ply_key) last guessed at here
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
            self._open.pop(room_id, None)

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
        guesser.key, guesser.cell = key, cell
        self._open[room_id] = key
        return cell

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
            ply = int(event["ply"])
            key = self._open.get(room_id)
            picks: dict[str, str] = {}
            if key is not None and key.endswith(f":{ply - 1}"):  # guessed at here
                # taken now: a guess of the next move may come before the split goes out
                picks = self._picks(room_id, key)
                if picks:
                    await self._book.tally(room_id, key, self.name, Counter(picks.values()))
            else:
                key = None
            await asyncio.sleep(self.settle)
            if key is None:  # nobody here guessed it: which game it was, from the room
                room = await self._load(room_id)
                # the room's game, unless a new game began within the settle time
                game_number = room.game_number if room.game.ply >= ply else room.game_number - 1
                key = ply_key(game_number, ply - 1)
            split = await self._book.split(room_id, key)
            for _ in self._send(room_id, key, ply, event, split, picks=picks):
                await asyncio.sleep(0)  # a slice a turn: a move arriving meanwhile goes first
        except RoomError as exc:
            log.info("room %s: no split for a move: %s", room_id, exc.message)
        except Exception:
            log.exception("room %s: the guesses' split failed", room_id)

    def _picks(self, room_id: str, key: str) -> dict[str, str]:
        """The cell each of this worker's spectators guessed for the ply ``key``, by
        connection."""
        return {
            conn: guesser.cell
            for conn, guesser in self._rooms.get(room_id, {}).items()
            if guesser.key == key and guesser.cell is not None
        }

    def _send(
        self,
        room_id: str,
        key: str,
        ply: int,
        event: dict[str, Any],
        split: dict[str, int],
        *,
        picks: dict[str, str],
    ) -> Iterator[None]:
        """Send each local spectator their split (``picks``: the local guesses of the move),
        yielding after every ``SLICE`` of them."""
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
        guessers = tuple(self._rooms.get(room_id, {}).items())
        for count, (conn, guesser) in enumerate(guessers, 1):
            if count % SLICE == 0:
                yield
            cell = picks.get(conn)
            if cell is not None:
                right = cell == played
                guesser.streak = guesser.streak + 1 if right else 0
                you = {"guess": _cell(cell), "right": right}
                if guesser.key == key:  # not yet guessing the next move
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
        await cancel_all(self._tasks)
        self._rooms.clear()
        self._seen.clear()
        self._open.clear()


def _cell(key: str) -> dict[str, int]:
    row, col, layer = (int(part) for part in key.split(","))
    return {"row": row, "col": col, "layer": layer}
