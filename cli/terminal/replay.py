"""``tictactoe play --replay FILE``: step through a game record (``record.txt``).

Enter shows the next move, ``b`` goes back one, ``q`` quits. Commands are read from stdin
a line at a time, so a replay can be scripted; it exits 0 when the reader quits or the
input ends, 1 when the file cannot be read or is not a record.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from core import GameError
from rooms.room import GameRecord, parse_record

from .board_view import describe_cell, render_board

__all__ = ["replay", "run_replay"]

HELP = "Enter: next move, b: back, q: quit."


def _header(record: GameRecord) -> str:
    headers = record.headers
    players = ", ".join(f"{mark} {headers[mark]}" for mark in record.rules.marks if mark in headers)
    tc = headers.get("TimeControl", "-")
    clock = f", time control {tc}" if tc != "-" else ""
    return (
        f"Game {headers.get('Game', '?')} in room {headers.get('Room', '?')}: "
        f"{record.rules.describe()}; {players}{clock}. {HELP}"
    )


def _show(record: GameRecord, at: int, out: TextIO) -> None:
    game = record.replay(at)
    if at == 0:
        print("Start (0 moves).", file=out)
    else:
        move, seconds = record.moves[at - 1]
        mark = record.rules.marks[(at - 1) % record.rules.players]
        when = f" at {seconds:.1f} s" if seconds is not None else ""
        print(f"{at}. {mark} plays {describe_cell(record.rules, move)}{when}.", file=out)
    print(render_board(game), file=out)
    if at == len(record.moves):
        termination = record.headers.get("Termination", "unterminated").replace("_", " ")
        print(f"End: {record.result} ({termination}).", file=out)


def replay(record: GameRecord, commands: TextIO, out: TextIO) -> int:
    print(_header(record), file=out)
    at = 0
    _show(record, at, out)
    for raw in commands:
        command = raw.strip().lower()
        if command == "q":
            return 0
        if command == "b":
            if at == 0:
                print("Already at the start.", file=out)
                continue
            at -= 1
        elif command == "":
            if at == len(record.moves):
                print(f"No more moves. {HELP}", file=out)
                continue
            at += 1
        else:
            print(f"Unknown command {raw.strip()!r}. {HELP}", file=out)
            continue
        _show(record, at, out)
    return 0


def run_replay(
    path: str,
    *,
    commands: TextIO | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    err = err if err is not None else sys.stderr
    try:
        record = parse_record(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        print(f"tictactoe: error: cannot read {path}: {exc}", file=err)
        return 1
    except GameError as exc:
        print(f"tictactoe: error: {path} is not a game record: {exc}", file=err)
        return 1
    return replay(record, commands or sys.stdin, out or sys.stdout)
