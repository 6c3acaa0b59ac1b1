"""An engine at a room's table: the bridge's seat, through the client library (client.aio).

``play_room`` takes a seat in the room of a link (a join key makes a lost answer harmless;
drops are resumed by the library), and on each of its turns asks the engine for a move in the
position the server reports, within the time the clock leaves (cli.bridge.timing). The
server stays the only judge: the local game is rebuilt from the server's move list before
each question, and only the engine's checked move is sent. When the engine fails (crash,
timeout, illegal move, refusal: docs/engine-protocol.md) the bridge resigns, so the other
player is not left facing a clock that never moves. Draw and takeback offers are declined:
the protocol gives an engine no way to weigh them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from typing import Any

from client import Refused, RoomLink, Seat, get_json
from client.aio import AsyncRoomClient
from core import Game, GameError, Move, Rules

from .driver import Engine
from .errors import EngineError, UnsupportedRules
from .timing import clock_times, movetime_for

__all__ = ["ENGINE_FAILED", "FINISHED", "NOT_PLAYED", "play_room", "play_seated", "resign"]

FINISHED = 0
"""Exit code: the game was played to its end (whatever the result)."""
NOT_PLAYED = 2
"""Exit code: no game was played (the room, the rules or the server said no)."""
ENGINE_FAILED = 3
"""Exit code: the engine failed during the game, and the bridge resigned it."""

NAME_LIMIT = 32  # docs/protocol.md, join: a name is 1-32 characters
REFUSALS_IN_A_ROW = 3
"""Moves the server may refuse in a row (each followed by a sync) before the bridge stops:
a refusal after a sync means the bridge and the server disagree about the game."""
REST = 1.0
"""Seconds between looks at the room when nothing arrives (a safety net: any message wakes
the loop at once)."""

SEEN_WAIT = 30.0
"""Seconds to wait for the event of the bridge's own move after its ``move_ok``."""

Log = Callable[[str], None]


def seat_name(name: str | None, engine: Engine) -> str:
    chosen = (name or engine.name).strip()[:NAME_LIMIT].strip()
    return chosen or "Engine"


def _game(rules: Rules, moves: list[dict[str, Any]]) -> Game:
    """The server's move list replayed (GameError: it does not fit the rules here)."""
    game = Game(rules)
    for move in moves:
        game.play(Move(move["row"], move["col"], move.get("layer") or 0))
    return game


def _result(outcome: Mapping[str, Any] | None, mark: str | None) -> str:
    if not outcome:
        return "the game is over"
    winner, reason = outcome.get("winner"), outcome.get("reason")
    if winner is None:
        return f"the game is over: a draw ({reason})"
    verdict = "the engine won" if winner == mark else "the engine lost"
    return f"the game is over: {winner} wins by {reason}; {verdict}"


async def play_room(
    engine: Engine, link: RoomLink, *, move_time: float, name: str | None, log: Log
) -> int:
    """Play the engine in the room of ``link`` until its game ends; an exit code."""
    assert link.room_id is not None and engine.info is not None
    snapshot = await asyncio.to_thread(get_json, link.http_base, f"/api/rooms/{link.room_id}")
    rules = Rules.from_dict(snapshot["rules"])
    if not engine.info.plays(rules):
        raise UnsupportedRules(f"{engine.name} does not play this room's {rules.describe()}")
    table = AsyncRoomClient(link.ws_url, Seat(role="player", name=seat_name(name, engine)))
    try:
        welcome = await table.join()
        log(f"seated as {welcome.get('mark')} in {link.play_url} ({rules.describe()})")
        return await play_seated(table, engine, move_time=move_time, log=log)
    finally:
        await table.close()


async def play_seated(table: AsyncRoomClient, engine: Engine, *, move_time: float, log: Log) -> int:
    """Play the engine at ``table`` (joined) until the game ends; an exit code. The room is
    the library's mirror of it (``table.room``), which the loop reads after each message."""
    mirror = table.room
    refusals = 0
    declined: set[tuple[str, int]] = set()
    waiting_said = False
    while True:
        table.changed.clear()  # set again by any message that arrives from here on
        mark = table.mark
        if table.failure is not None:
            log(f"lost the room: {table.failure}")
            return NOT_PLAYED
        if mirror.gap:
            await table.command("sync")
            continue
        if mirror.status == "finished":
            log(_result(mirror.outcome, mark))
            return FINISHED
        await _decline_offers(table, declined)
        if mirror.status == "waiting" and not waiting_said:
            log("waiting for the other players to join")
            waiting_said = True
        if table.my_turn and mark is not None:
            try:
                game = _game(mirror.rules, mirror.moves)
            except GameError as exc:
                log(f"the server's moves do not replay here ({exc}); syncing")
                await table.command("sync")
                continue
            first = not any(move.get("mark") == mark for move in mirror.moves)
            movetime = movetime_for(move_time, mirror.clock, mark, first_move=first)
            try:
                move = await engine.best_move(
                    game, movetime=movetime, clock=clock_times(mirror.clock)
                )
            except EngineError as exc:
                log(exc.report())
                await resign(table, log)
                return ENGINE_FAILED
            layer = move.layer if mirror.rules.is_3d else None
            try:
                ok = await table.move(move.row, move.col, layer, version=mirror.version)
            except Refused as exc:
                refusals += 1
                log(f"the server refused {move}: {exc.code}: {exc}")
                if refusals >= REFUSALS_IN_A_ROW:
                    await resign(table, log)
                    return ENGINE_FAILED
                await table.command("sync")
                continue
            refusals = 0
            log(f"{mark} plays {move} (thought {movetime:.2f} s at most)")
            with contextlib.suppress(TimeoutError):  # else the next look syncs if need be
                await asyncio.wait_for(table.seen(int(ok["version"])), SEEN_WAIT)
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(table.changed.wait(), REST)


async def _decline_offers(table: AsyncRoomClient, declined: set[tuple[str, int]]) -> None:
    """Decline the other side's draw and takeback offers, each once."""
    for offer in ("draw", "takeback"):
        by = table.room.offers.get(offer)
        key = (offer, table.room.version)
        if by is None or by == table.mark or key in declined:
            continue
        declined.add(key)
        with contextlib.suppress(Refused):  # the offer may be gone already
            await table.command(f"decline_{offer}")


async def resign(table: AsyncRoomClient, log: Log) -> None:
    try:
        await table.command("resign")
    except Refused as exc:  # the game may have ended meanwhile
        log(f"could not resign: {exc.code}")
    else:
        log("resigned the game: the engine cannot go on")
