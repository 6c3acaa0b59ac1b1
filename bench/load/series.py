"""Rematch mode: game after game in one room, on the same connections, until told to stop.

After a game both players send ``rematch`` (docs/protocol.md); the server acks each, sends a
``rematch_offered`` for the first vote and a ``new_game`` for the second, with
``new_game.marks`` mapping each old mark to its new one (who was O now moves first as X).
Spectators stay and keep measuring; latency is taken as in a single game (bench.load.game). The
``rematch`` carries the version the player last saw: the server ignores it, the bare relay
numbers its events from it.

Players vote the instant they see the last move unless given a ``vote`` wait
(``--rematch-think``): instant votes pile two more fan-outs onto the last move's delivery, which
people, who take a moment to ask for another game, do not do.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection

from .game import (
    GameFailed,
    Round,
    close,
    counting_errors,
    join_all,
    message,
    seat,
    spectate,
    together,
)
from .http import HttpPool
from .recorder import Recorder
from .schedule import Lane
from .scripts import Script
from .think import Think

__all__ = ["Seated", "play_series"]

FIRST = {"X": 0, "O": 1}  # a player's index in ``seat``: X moves first
_AT_ONCE = Think()


@dataclass(slots=True)
class Seated:
    """A room whose two players already joined (crowd mode seats them before the run)."""

    room_id: str
    players: list[ClientConnection]
    """X, then O (the join order)."""
    version: int
    """The version the first move is made against (the second player's welcome)."""


async def _next_game(ws: ClientConnection) -> tuple[int, dict[str, Any]]:
    """Read up to the ``new_game`` (skipping ``ack``, ``rematch_offered``, ...); its version
    and its ``marks``."""
    async for text in ws:
        event = message(text)
        kind = event.get("type")
        if kind == "new_game":
            marks = event.get("marks")
            if not isinstance(marks, dict):
                raise GameFailed("new_game_without_marks")
            return int(event["version"]), marks
        if kind == "error":
            raise GameFailed(f"error:{event.get('code')}")
    raise GameFailed("closed_by_server")


@dataclass(slots=True)
class _Player:
    ws: ClientConnection
    mark: str
    version: int
    vote: Think
    """How long it waits after a game's last move before asking for the rematch."""

    async def play(self, game: Round) -> None:
        if game.number:  # after the first game: vote, and learn the new mark
            pause = self.vote.pause()
            if pause > 0:
                await asyncio.sleep(pause)
            await self.ws.send(
                json.dumps({"type": "rematch", "id": f"r{game.number}", "version": self.version})
            )
            self.version, marks = await _next_game(self.ws)
            mark = marks.get(self.mark)
            if mark not in FIRST:
                raise GameFailed("new_game_without_marks")
            self.mark = mark
        self.version = await seat(self.ws, game, FIRST[self.mark], self.version)


async def _watch(ws: ClientConnection, game: Round) -> None:
    if game.number:
        await _next_game(ws)
    await spectate(ws, game)


async def play_series(
    ws_base: str,
    http: HttpPool,
    rules: dict[str, Any],
    next_script: Callable[[], Script],
    *,
    spectators: int,
    think: Think,
    recorder: Recorder,
    timeout: float,
    stop: asyncio.Event,
    seated: Seated | None = None,
    sends: dict[tuple[str, int, int], float] | None = None,
    vote: Think = _AT_ONCE,
    lane: Lane | None = None,
) -> None:
    """Play games in one room until ``stop`` is set (looked at after each game); errors are
    counted in ``recorder``, never raised, and end the series. A new room with two players
    and ``spectators`` is made, unless ``seated`` brings one (whose spectators live
    elsewhere). ``timeout`` bounds the joins and each game (its rematch included). ``vote``:
    the players' wait before each rematch vote (none by default)."""
    opened: list[ClientConnection] = [] if seated is None else list(seated.players)
    try:
        with counting_errors(recorder):
            if seated is None:
                async with asyncio.timeout(timeout):
                    room_id = await http.create_room(rules)
                    versions = await join_all(
                        f"{ws_base}/ws/{room_id}", spectators, recorder, opened
                    )
                start = max(versions[:2])  # the game started at the second player's join
            else:
                room_id, start = seated.room_id, seated.version
            players = [
                _Player(ws, mark, start, vote) for ws, mark in zip(opened[:2], "XO", strict=True)
            ]
            watchers = opened[2:]
            for number in itertools.count():
                game = Round(
                    next_script(),
                    recorder,
                    think,
                    sends=sends,
                    room=room_id,
                    number=number,
                    lane=lane,
                )
                try:
                    async with asyncio.timeout(timeout):
                        await together(
                            *(player.play(game) for player in players),
                            *(_watch(ws, game) for ws in watchers),
                        )
                finally:
                    game.done()
                recorder.games += 1
                if stop.is_set():
                    return
    finally:
        await asyncio.gather(*(close(ws, recorder) for ws in opened))
