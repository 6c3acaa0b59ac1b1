"""The guessing crowd: ``--spectators`` WebSockets on the spectators' path, in a child process
of the benchmark's, guessing each move while the players' process says so.

One connection (the first) keeps the board the crowd guesses on; every spectator guesses
each move once, at a random moment of the think time, a random empty cell. The crowd's
client parses only the moves it guesses at (it shares the host's cores with the server) and
counts what comes back: splits, refusals. ``run_crowd`` is the child process: it reports
the counts on its queue when told to stop, or why a spectator could not join.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing.synchronize
import random
from typing import Any

from websockets.asyncio.client import ClientConnection

from client.aio import open_joined

from .room import RULES, WAIT, socket_url

__all__ = ["run_crowd"]

_TYPED = '{"type":"'
_GUESSES, _ERROR = '{"type":"guesses"', '{"type":"error"'
_MOVED, _NEW_GAME = '{"type":"moved"', '{"type":"new_game"'


class _Board:
    """The cells taken in the current game, as the crowd's first connection sees them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.taken: set[tuple[int, int]] = set()
        self.version = 0

    def empty_cell(self) -> tuple[int, int]:
        while True:
            cell = (random.randrange(self.size), random.randrange(self.size))
            if cell not in self.taken:
                return cell


async def _spectator(
    url: str, room_id: str, *, board: _Board, guessing: Any, think: float,
    counts: dict[str, int], first: bool,
) -> None:  # fmt: skip
    ws, answer = await _joined(socket_url(url, room_id, watch=True), counts)
    async with ws:
        if answer["type"] != "welcome":
            raise RuntimeError(f"a spectator's join was refused: {answer}")
        counts["joined"] += 1
        pending: list[asyncio.Task[None]] = []  # the guess of the move under way
        try:
            await _watch(
                ws, board=board, guessing=guessing, think=think, counts=counts, first=first,
                pending=pending,
            )  # fmt: skip
        finally:  # stopped: the guess under way goes too, not on a closed socket
            for task in pending:
                task.cancel()


async def _watch(
    ws: ClientConnection, *, board: _Board, guessing: Any, think: float,
    counts: dict[str, int], first: bool, pending: list[asyncio.Task[None]],
) -> None:  # fmt: skip
    """A spectator's messages until its socket closes: a guess of each move while guessing."""
    async for text in ws:
        # Only a move is parsed: a thousand spectators' clients here share the players'
        # and the server's cores, which real spectators' never do; the rest is told
        # apart by how the server's compact text starts (its type is encoded first).
        if isinstance(text, bytes) or not text.startswith(_TYPED):
            continue
        if text.startswith(_GUESSES):
            counts["splits"] += 1
            continue
        if text.startswith(_ERROR):
            counts["refused"] += 1
            continue
        if not text.startswith(_MOVED) and not (first and text.startswith(_NEW_GAME)):
            continue
        message = json.loads(text)
        kind = message.get("type")
        if kind == "moved":
            if first:
                board.taken.add((message["row"], message["col"]))
                board.version = message["version"]
            if guessing.value and message.get("status") == "playing":
                for task in pending:
                    task.cancel()
                pending[:] = [
                    asyncio.create_task(_guess(ws, message["version"], board, think, counts))
                ]
        elif kind == "new_game":
            board.taken.clear()


async def _joined(url: str, counts: dict[str, int]) -> tuple[ClientConnection, dict[str, Any]]:
    """A spectator's socket and the answer to its join, tried again while a busy machine
    makes the handshake time out."""
    join = {"type": "join", "as": "spectator"}
    for _ in range(10):
        try:
            return await open_joined(url, join, answer_wait=WAIT, max_queue=None, open_timeout=WAIT)
        except (OSError, TimeoutError):
            counts["retried"] += 1
            await asyncio.sleep(1.0)
    raise RuntimeError(f"could not connect to {url}")


async def _guess(
    ws: ClientConnection, version: int, board: _Board, think: float, counts: dict[str, int]
) -> None:
    await asyncio.sleep(random.uniform(0, 0.8 * think))
    row, col = board.empty_cell()
    await ws.send(json.dumps({"type": "guess", "row": row, "col": col, "version": version}))
    counts["guesses"] += 1


def run_crowd(
    url: str, room_id: str, spectators: int, think: float,
    signals: tuple[Any, multiprocessing.synchronize.Event, multiprocessing.synchronize.Event, Any],
) -> None:  # fmt: skip
    """The crowd's process; ``signals``: the guessing flag, ready, stop, and the results' queue."""
    guessing, ready, stop, out = signals

    async def run() -> None:
        board = _Board(RULES["rows"])
        counts = {"joined": 0, "guesses": 0, "splits": 0, "refused": 0, "retried": 0}
        tasks = []
        for i in range(spectators):
            tasks.append(asyncio.create_task(
                _spectator(
                    url, room_id, board=board, guessing=guessing, think=think, counts=counts,
                    first=i == 0,
                )
            ))  # fmt: skip
            if i % 50 == 49:
                await asyncio.sleep(0.05)  # a crowd arriving, not a flood
        while counts["joined"] < spectators and not stop.is_set():
            failed = [t for t in tasks if t.done()]
            if failed:  # a spectator could not join: say why, and stop
                out.put({**counts, "failed": repr(failed[0].exception())})
                return
            await asyncio.sleep(0.1)
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.1)
        out.put(counts)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
