"""Soak games as the checker's tests make them: the script's moves acknowledged, the record
the store would hold, and the report of a run that played them (``bench.soak``)."""

from __future__ import annotations

from typing import Any

from bench.soak import Ack, LogScan, StoredGame, build_report
from bench.soak.check import Cell
from bench.soak.game import SCRIPT, GameLog
from bench.soak.tally import Tally

__all__ = ["ASKED", "exit_status", "game_log", "played", "report_of", "stored"]

ASKED = {"server_kill": 1, "redis_kill": 0}


def played(moves: int) -> tuple[list[Ack], StoredGame]:
    """The first ``moves`` of the script, each acknowledged once (two joins came first:
    the first move lands at version 3), and the matching record, finished at 25."""
    acks, cells = [], []
    for index, (row, col) in enumerate(SCRIPT[:moves]):
        cell = ("XO"[index % 2], row, col)
        acks.append(Ack(f"{cell[0]}{index:02d}", cell, 3 + index, duplicate=False))
        cells.append(cell)
    return acks, stored(cells, {a.move_id: a.version for a in acks}, moves == len(SCRIPT))


def stored(cells: list[Cell], versions: dict[str, int], finished: bool = True) -> StoredGame:
    return StoredGame(tuple(cells), versions, "finished" if finished else "playing")


def game_log(number: int, acks: list[Ack], record: StoredGame, **kwargs: Any) -> GameLog:
    log = GameLog(number, room_id=f"room{number}", outcome="finished", **kwargs)
    log.acks, log.record = acks, record
    return log


def report_of(*games: GameLog, logs: LogScan | None = None) -> dict[str, Any]:
    return build_report(
        list(games), Tally(), {"server_kill": 1}, asked=ASKED, seconds=1.0, options={}, logs=logs
    )


def exit_status(report: dict[str, Any]) -> tuple[int, list[str]]:
    return report["exit_status"], report["failed_checks"]
