"""Room service benchmark: CPU time per command through ``RoomService(MemoryStore)``.

    .venv/bin/python -m bench.rooms [--rounds N] [--json]

Each figure is process CPU time (``time.process_time``) per command, the best of ``--rounds``
rounds, so other work on a shared machine does not inflate it:

- *moves*: scripted games (3×3, and 15×15 k=5 with 120 moves and no line), each ``PlayMove``
  handled, encoded, compare-and-set in the memory store and published;
- *as a worker*: the 3×3 moves plus what a worker adds around ``execute``: the frame parsed, the
  watch (rooms.watch) observing, the ``move_ok`` encoded;
- *join+leave*: a spectator joins and leaves mid-game (3×3 after 4 moves, 15×15 after 120);
- *cold*: the moves with ``RoomCache(size=0)``, so every command loads and decodes, as after
  another worker's commit (rooms.cache);
- *series*: 9-move games with both rematch votes in a room already holding ``KEEP_GAMES``
  archived games, warm and cold;
- the codec alone: ``decode_room``, ``encode_room`` and ``Room.copy`` of the 15×15 room and of a
  3×3 room mid-game with no archive and with a full one.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import platform
import random
import sys
from collections.abc import Callable, Coroutine
from time import process_time
from typing import Any

from core import Game, MoveRequest, Rules
from rooms import Role, RoomService
from rooms.backends import MemoryStore
from rooms.cache import RoomCache
from rooms.protocol import (
    MoveMessage,
    decode_room,
    dumps,
    encode_room,
    move_ok_message,
    parse_message,
)
from rooms.room import Join, Leave, MoveReply, PlayMove, Rematch
from rooms.room.rematch import KEEP_GAMES
from rooms.watch import Watch

__all__ = ["main", "measure"]

SMALL = Rules()
LARGE = Rules(rows=15, cols=15, k=5)
LONG_GAME = 120  # moves of the scripted 15×15 game (about what long games reach)

# A 3×3 game that fills the board without a line: nine moves, a draw.
DRAW_3X3 = [(0, 0), (1, 1), (2, 2), (0, 2), (2, 0), (1, 0), (1, 2), (2, 1), (0, 1)]


def _long_game(rules: Rules, length: int, seed: int = 8) -> list[tuple[int, int]]:
    """``length`` random moves that complete no line (seeded, so every run plays it)."""
    rng = random.Random(seed)
    while True:
        game = Game(rules)
        while game.outcome is None and game.ply < length:
            game.play_index(rng.choice(game.legal_indices()))
        if game.outcome is None:
            return [(move.row, move.col) for move in game.history]


async def _seated(service: RoomService, rules: Rules) -> str:
    room = await service.create(rules, public=False)
    await service.execute(room.room_id, Join("x", Role.PLAYER, "X"))
    await service.execute(room.room_id, Join("o", Role.PLAYER, "O"))
    return room.room_id


async def _play(service: RoomService, room_id: str, moves: list[tuple[int, int]]) -> float:
    """CPU seconds spent executing ``moves`` (alternating X and O) on a seated room."""
    version = 2
    started = process_time()
    for ply, (row, col) in enumerate(moves):
        conn = "xo"[ply % 2]
        command = PlayMove(conn, MoveRequest(col=col, row=row), version, f"{conn}{ply}")
        version = (await service.execute(room_id, command)).room.version
    return process_time() - started


async def _moves(rules: Rules, moves: list[tuple[int, int]], games: int, cache: int) -> float:
    """µs per move command over ``games`` fresh rooms."""
    service = RoomService(MemoryStore(), cache=RoomCache(size=cache))
    spent = 0.0
    for _ in range(games):
        spent += await _play(service, await _seated(service, rules), moves)
    return spent / (games * len(moves)) * 1e6


async def _worker_moves(moves: list[tuple[int, int]], games: int) -> float:
    """µs per move command as a worker runs it: the frame parsed, the command executed by a
    service its watch observes, the answer encoded (the socket and the bus left out)."""
    service = RoomService(MemoryStore())
    watch = Watch(service)
    frames = [
        json.dumps(
            {
                "type": "move",
                "row": row,
                "col": col,
                "version": 2 + ply,
                "move_id": f"{'xo'[ply % 2]}{ply}",
            }
        )
        for ply, (row, col) in enumerate(moves)
    ]
    spent = 0.0
    for _ in range(games):
        room_id = await _seated(service, SMALL)
        started = process_time()
        for ply, frame in enumerate(frames):
            message = parse_message(frame, max_bytes=4096)
            assert isinstance(message, MoveMessage)
            command = PlayMove("xo"[ply % 2], message.request, message.version, message.move_id)
            executed = await service.execute(room_id, command)
            assert isinstance(executed.reply, MoveReply)
            dumps(move_ok_message(executed.reply))
        spent += process_time() - started
    await watch.close()
    return spent / (games * len(moves)) * 1e6


async def _joins(rules: Rules, moves: list[tuple[int, int]], spectators: int) -> float:
    """µs per command for ``spectators`` joins and as many leaves, mid-game."""
    service = RoomService(MemoryStore())
    room_id = await _seated(service, rules)
    await _play(service, room_id, moves)
    started = process_time()
    for index in range(spectators):
        await service.execute(room_id, Join(f"s{index}", Role.SPECTATOR))
    for index in range(spectators):
        await service.execute(room_id, Leave(f"s{index}"))
    return (process_time() - started) / (2 * spectators) * 1e6


async def _series(service: RoomService, room_id: str, games: int) -> tuple[float, int]:
    """CPU seconds and commands to play ``games`` 3×3 draws in a seated room, each followed
    by both rematch votes (the seats' marks rotate after each game)."""
    spent, commands = 0.0, 0
    for _ in range(games):
        room = await service.load(room_id)
        first = room.seat_by_mark("X")
        assert first is not None
        conns = ("x", "o") if "x" in first.connections else ("o", "x")
        started = process_time()
        version = room.version
        for ply, (row, col) in enumerate(DRAW_3X3):
            conn = conns[ply % 2]
            command = PlayMove(conn, MoveRequest(col=col, row=row), version, f"{conn}{ply}")
            version = (await service.execute(room_id, command)).room.version
        for conn in conns:
            await service.execute(room_id, Rematch(conn))
        spent += process_time() - started
        commands += len(DRAW_3X3) + len(conns)
    return spent, commands


async def _archived(service: RoomService) -> str:
    """A seated 3×3 room holding KEEP_GAMES archived games, in its first moves."""
    room_id = await _seated(service, SMALL)
    await _series(service, room_id, KEEP_GAMES)
    return room_id


async def _long_series(games: int, cache: int) -> float:
    """µs per command of ``games`` more games in a room that holds KEEP_GAMES already."""
    service = RoomService(MemoryStore(), cache=RoomCache(size=cache))
    spent, commands = await _series(service, await _archived(service), games)
    return spent / commands * 1e6


async def _codec(
    rules: Rules, moves: list[tuple[int, int]], times: int, archived: bool = False
) -> dict[str, float]:
    """µs per decode_room / encode_room / Room.copy of a room after ``moves`` (in a room
    that holds KEEP_GAMES archived games when ``archived``)."""
    service = RoomService(MemoryStore())
    room_id = await (_archived(service) if archived else _seated(service, rules))
    room = await service.load(room_id)
    for ply, (row, col) in enumerate(moves):
        conn = next(s for s in room.seats if s.mark == "XO"[ply % 2]).connections[0]
        command = PlayMove(conn, MoveRequest(col=col, row=row), room.version, f"{conn}{ply}")
        room = (await service.execute(room_id, command)).room
    text = encode_room(room)
    found: dict[str, float] = {}
    started = process_time()
    for _ in range(times):
        decode_room(text)
    found["decode_room"] = (process_time() - started) / times * 1e6
    started = process_time()
    for _ in range(times):
        encode_room(room)
    found["encode_room"] = (process_time() - started) / times * 1e6
    copy = getattr(room, "copy", None)
    if copy is not None:
        started = process_time()
        for _ in range(times):
            copy()
        found["Room.copy"] = (process_time() - started) / times * 1e6
    return found


def _best(rounds: int, run: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """The smallest figure(s) of ``rounds`` runs (a dict: the smallest of each key)."""
    results: list[Any] = []
    for _ in range(rounds):
        gc.collect()
        results.append(asyncio.run(run()))
    if isinstance(results[0], dict):
        return {key: min(result[key] for result in results) for key in results[0]}
    return min(results)


def measure(rounds: int = 5) -> dict[str, Any]:
    long_game = _long_game(LARGE, LONG_GAME)
    return {
        "moves 3×3 (µs/command)": _best(rounds, lambda: _moves(SMALL, DRAW_3X3, 200, 4096)),
        "moves 15×15 k=5, 120 moves (µs/command)": _best(
            rounds, lambda: _moves(LARGE, long_game, 10, 4096)
        ),
        "moves 3×3 as a worker: parsed, watched (µs/command)": _best(
            rounds, lambda: _worker_moves(DRAW_3X3, 200)
        ),
        "join+leave 3×3 (µs/command)": _best(rounds, lambda: _joins(SMALL, DRAW_3X3[:4], 300)),
        "join+leave 15×15 at 120 moves (µs/command)": _best(
            rounds, lambda: _joins(LARGE, long_game, 300)
        ),
        "cold moves 3×3 (µs/command)": _best(rounds, lambda: _moves(SMALL, DRAW_3X3, 100, 0)),
        "cold moves 15×15 k=5 (µs/command)": _best(rounds, lambda: _moves(LARGE, long_game, 4, 0)),
        f"series 3×3 at {KEEP_GAMES} archived games (µs/command)": _best(
            rounds, lambda: _long_series(20, 4096)
        ),
        f"cold series 3×3 at {KEEP_GAMES} archived games (µs/command)": _best(
            rounds, lambda: _long_series(10, 0)
        ),
        "15×15 room at 120 moves (µs each)": _best(rounds, lambda: _codec(LARGE, long_game, 300)),
        "3×3 room at 4 moves, no archived games (µs each)": _best(
            rounds, lambda: _codec(SMALL, DRAW_3X3[:4], 1000)
        ),
        f"3×3 room at 4 moves, {KEEP_GAMES} archived games (µs each)": _best(
            rounds, lambda: _codec(SMALL, DRAW_3X3[:4], 1000, archived=True)
        ),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.rooms", description=__doc__)
    parser.add_argument("--rounds", type=int, default=5, help="best of this many rounds")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--redis",
        metavar="URL",
        default=None,
        help="also a room's lifecycle on this Redis with two workers "
        "(bench.room_lifecycle; keys under a prefix of its own, deleted)",
    )
    args = parser.parse_args(argv)
    results = measure(args.rounds)
    if args.redis:
        from .room_lifecycle import measure_lifecycle

        lifecycle = measure_lifecycle(args.redis, rounds=args.rounds)
        results.update({f"Redis, two workers: {key}": value for key, value in lifecycle.items()})
    if args.json:
        print(json.dumps({"python": platform.python_version(), "results": results}, indent=2))
        return 0
    print(
        f"Room service CPU time per command, best of {args.rounds} "
        f"(Python {platform.python_version()})"
    )
    for name, value in results.items():
        if isinstance(value, dict):
            print(f"  {name}")
            for key, figure in value.items():
                shown = f"{figure:9.1f}" if isinstance(figure, float) else f"{figure!s:>9}"
                print(f"    {key:<44} {shown}")
        else:
            print(f"  {name:<52} {value:7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
