"""Game records: a finished game archived in its room, and the plain text export.

The text form is PGN-like: ``[Name "value"]`` headers (the rules among them), a blank
line, one move per line (``3. X r0c2 4.100``: ply, mark, cell, seconds since the game
started), then the result. ``parse_record`` reads it back, so ``tictactoe play --replay``
can step through a game exported by ``GET /api/rooms/{id}/record.txt``.

A finished game has a stable id, ``game_id``: a digest of its rules, its moves in order, its
result and how it ended, and of nothing else (not the room, the names or the times), so the
same game gets the same id wherever it is exported, and a record whose moves were edited no
longer matches the ``GameId`` header it carries.
"""

from __future__ import annotations

import base64
import hashlib
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core import Game, GameError, Move, Rules
from rooms.errors import ErrorCode, RoomError

if TYPE_CHECKING:
    from rooms.room.seats import Seat
    from rooms.room.state import RoomState

__all__ = [
    "GameRecord",
    "archive",
    "current_record",
    "format_record",
    "game_id",
    "parse_record",
    "record_of",
]

_RULE_HEADERS = {
    "rows": "Rows",
    "cols": "Cols",
    "k": "K",
    "gravity": "Gravity",
    "misere": "Misere",
    "players": "Players",
    "layers": "Layers",
    "early_draw": "EarlyDraw",
}
_GAME_ID_FORMAT = "tictactoe-game/1"
"""Names the digest's input layout: a new layout gets a new name, never a changed meaning."""
_HEADER = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')
_MOVE = re.compile(r"^(\d+)\.\s+([XOAB])\s+r(\d+)c(\d+)(?:l(\d+))?(?:\s+(-?[\d.]+))?$")


def _moves(room: RoomState) -> list[dict[str, Any]]:
    marks = room.rules.marks
    return [
        {"mark": marks[i % len(marks)], **move.to_dict(), "at": at}
        for i, (move, at) in enumerate(zip(room.game.history, room.move_times, strict=True))
    ]


def _who(seat: Seat) -> dict[str, Any]:
    """Who played a mark in a game: the name, and the identity when the seat had one (a
    player's page lists the games of its id)."""
    if seat.player_id is None:
        return {"mark": seat.mark, "name": seat.name}
    return {"mark": seat.mark, "name": seat.name, "player_id": seat.player_id}


def current_record(room: RoomState) -> dict[str, Any]:
    """The room's current game as a record (finished or not)."""
    outcome = room.game.outcome
    tc = room.settings.time_control
    return {
        "game_number": room.game_number,
        "players": [_who(seat) for seat in room.seats],
        "moves": _moves(room),
        "outcome": outcome.to_dict() if outcome is not None else None,
        "started_at": room.started_at,
        "ended_at": room.ended_at,
        "time_control": tc.describe() if tc is not None else None,
    }


def record_of(room: RoomState, wanted: str | None) -> dict[str, Any]:
    """The room's game numbered ``wanted`` (as given in a query string), the current game
    for None; RoomError(not_found) for a number the room does not have."""
    if wanted is None or wanted == str(room.game_number):
        return current_record(room)
    found = [g for g in room.games if str(g["game_number"]) == wanted]
    if not found:
        raise RoomError(ErrorCode.NOT_FOUND, f"room has no game {wanted!r:.20}")
    return found[0]


def archive(room: RoomState) -> dict[str, Any]:
    """The finished current game, to keep in the room's ``games`` when the next starts."""
    return current_record(room)


def _result(outcome: dict[str, Any] | None, players: int) -> str:
    if outcome is None or outcome["reason"] == "aborted":
        return "*"
    winner = outcome.get("winner")
    if winner is None:
        return "1/2-1/2" if outcome.get("loser") is None else "*"
    if players == 2:
        return "1-0" if winner == "X" else "0-1"
    return f"{winner} wins"


def _cell(rules: Rules, row: int, col: int, layer: int) -> str:
    return f"r{row}c{col}" + (f"l{layer}" if rules.is_3d else "")


def _digest(rules: Rules, cells: Sequence[str], result: str, termination: str) -> str:
    rule_text = ";".join(f"{name}={getattr(rules, name)!s}".lower() for name in _RULE_HEADERS)
    text = "|".join((_GAME_ID_FORMAT, rule_text, ",".join(cells), result, termination))
    digest = hashlib.sha256(text.encode()).digest()[:10]  # 80 bits: 16 base32 letters
    return base64.b32encode(digest).decode().lower()


def game_id(rules: Rules, record: dict[str, Any]) -> str | None:
    """The finished game's stable id (16 letters and digits), None while it is unfinished."""
    outcome = record.get("outcome")
    if outcome is None:
        return None
    cells = [_cell(rules, m["row"], m["col"], m.get("layer", 0)) for m in record["moves"]]
    return _digest(rules, cells, _result(outcome, rules.players), outcome["reason"])


def _quote(value: object) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def format_record(
    room_id: str,
    rules: Rules,
    record: dict[str, Any],
    *,
    extra: Sequence[tuple[str, object]] = (),
) -> str:
    """The plain text record of ``record`` (one of a room's games) under ``rules``; the
    ``extra`` headers come right after ``Event`` (a tournament's name and round)."""
    started = record.get("started_at")
    date = time.strftime("%Y.%m.%d", time.gmtime(started)) if started else "????.??.??"
    result = _result(record.get("outcome"), rules.players)
    outcome = record.get("outcome")
    headers: list[tuple[str, object]] = [
        ("Event", "tictactoe"),
        *extra,
        ("Room", room_id),
        ("Game", record["game_number"]),
        ("Date", date),
    ]
    headers += [(p["mark"], p["name"]) for p in record["players"]]
    for name, header in _RULE_HEADERS.items():
        value = getattr(rules, name)
        headers.append((header, str(value).lower() if isinstance(value, bool) else value))
    headers += [
        ("TimeControl", record.get("time_control") or "-"),
        ("Result", result),
        ("Termination", outcome["reason"] if outcome else "unterminated"),
    ]
    finished_id = game_id(rules, record)
    if finished_id is not None:
        headers.append(("GameId", finished_id))
    lines = [f'[{name} "{_quote(value)}"]' for name, value in headers]
    lines.append("")
    for ply, move in enumerate(record["moves"], start=1):
        cell = _cell(rules, move["row"], move["col"], move.get("layer", 0))
        offset = move["at"] - started if started is not None else 0.0
        lines.append(f"{ply}. {move['mark']} {cell} {offset:.3f}")
    lines.append(result)
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A parsed text record: its headers, rules, moves (with seconds since the start)."""

    headers: dict[str, str]
    rules: Rules
    moves: tuple[tuple[Move, float | None], ...]
    result: str

    def replay(self, upto: int | None = None) -> Game:
        """The game after the first ``upto`` moves (all when None), each one validated."""
        moves = self.moves if upto is None else self.moves[:upto]
        return Game.replay(self.rules, [move for move, _ in moves])


def parse_record(text: str) -> GameRecord:
    """Read a text record; GameError (naming the line) when it is not one."""
    headers: dict[str, str] = {}
    moves: list[tuple[Move, float | None]] = []
    result = "*"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        header = _HEADER.match(line)
        if header is not None:
            headers[header.group(1)] = re.sub(r"\\(.)", r"\1", header.group(2))
            continue
        move = _MOVE.match(line)
        if move is not None:
            ply, _, row, col, layer, at = move.groups()
            if int(ply) != len(moves) + 1:
                raise GameError(f"line {number}: expected move {len(moves) + 1}, got {ply}")
            cell = Move(int(row), int(col), int(layer) if layer else 0)
            moves.append((cell, float(at) if at is not None else None))
            continue
        if line in {"1-0", "0-1", "1/2-1/2", "*"} or re.fullmatch(r"[XOAB] wins", line):
            result = line
            continue
        raise GameError(f"line {number}: not a header, a move or a result: {line!r:.60}")
    rules = _rules(headers)
    record = GameRecord(headers, rules, tuple(moves), result)
    record.replay()  # every move must be legal in order
    claimed = headers.get("GameId")
    if claimed is not None:
        cells = [_cell(rules, move.row, move.col, move.layer) for move, _ in moves]
        termination = headers.get("Termination", "unterminated")
        if claimed != _digest(rules, cells, result, termination):
            raise GameError(
                f"header GameId: {claimed!r:.24} is not the id of these rules, moves and result"
            )
    return record


def _rules(headers: dict[str, str]) -> Rules:
    values: dict[str, Any] = {}
    for name, header in _RULE_HEADERS.items():
        raw = headers.get(header)
        if raw is None:
            continue
        if name in {"gravity", "misere", "early_draw"}:
            if raw not in {"true", "false"}:
                raise GameError(f"header {header}: expected true or false, got {raw!r:.20}")
            values[name] = raw == "true"
        else:
            try:
                values[name] = int(raw)
            except ValueError:
                raise GameError(f"header {header}: expected a number, got {raw!r:.20}") from None
    return Rules.from_dict(values)
