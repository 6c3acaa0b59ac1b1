"""The pure engine for the Tic-Tac-Toe family: rules, board, win rules, game, tournament.

Standard library only, synchronous, no I/O, no clock. ``rooms`` and ``server`` build on it.
"""

from __future__ import annotations

from .board import EMPTY, Board
from .codec import decode, encode
from .errors import (
    CellOccupied,
    ColumnFull,
    GameError,
    GameOver,
    MalformedMove,
    NothingToUndo,
    NotYourTurn,
    OutOfBounds,
    RulesError,
)
from .game import Game, GameListener
from .geometry import Geometry, geometry
from .move import Move, MoveRequest, parse_move
from .outcome import EndReason, Outcome
from .rules import MARKS, Rules
from .wins import WIN_STRATEGIES, ConnectStrategy, CounterStrategy, scan

__all__ = [
    "EMPTY",
    "MARKS",
    "WIN_STRATEGIES",
    "Board",
    "CellOccupied",
    "ColumnFull",
    "ConnectStrategy",
    "CounterStrategy",
    "EndReason",
    "Game",
    "GameError",
    "GameListener",
    "GameOver",
    "Geometry",
    "MalformedMove",
    "Move",
    "MoveRequest",
    "NotYourTurn",
    "NothingToUndo",
    "OutOfBounds",
    "Outcome",
    "Rules",
    "RulesError",
    "decode",
    "encode",
    "geometry",
    "parse_move",
    "scan",
]
