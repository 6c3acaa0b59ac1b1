"""The pure engine for the Tic-Tac-Toe family: rules, board, win rules, game, tournament.

Standard library only, synchronous, no I/O, no clock. ``rooms`` and ``server`` build on it.
"""

from __future__ import annotations

from .board import EMPTY, Board
from .cell_names import cell_name, column_name, named_cell
from .codec import decode, encode
from .errors import (
    CellOccupied,
    ColumnFull,
    GameError,
    GameOver,
    MalformedMove,
    NothingToRedo,
    NothingToUndo,
    NotYourTurn,
    OutOfBounds,
    RulesError,
)
from .game import Game, GameListener
from .geometry import Geometry, geometry
from .interned import BuiltOnce, typed_key
from .move import Move, MoveRequest, parse_move
from .outcome import EndReason, Outcome, ended_because
from .round_robin import (
    DuplicatePlayer,
    InvalidPlayerName,
    Pairing,
    Round,
    TooFewPlayers,
    TournamentError,
    schedule,
)
from .rules import MARKS, Rules
from .tournament import (
    InvalidPoints,
    NotInPairing,
    Points,
    Result,
    ResultAlreadyRecorded,
    Standing,
    Tournament,
    UnknownPairing,
    UnknownPlayer,
)
from .wins import WIN_STRATEGIES, ConnectStrategy, CounterStrategy, scan

__all__ = [
    "BuiltOnce",
    "EMPTY",
    "MARKS",
    "WIN_STRATEGIES",
    "Board",
    "CellOccupied",
    "ColumnFull",
    "ConnectStrategy",
    "CounterStrategy",
    "DuplicatePlayer",
    "EndReason",
    "Game",
    "GameError",
    "GameListener",
    "GameOver",
    "Geometry",
    "InvalidPlayerName",
    "InvalidPoints",
    "MalformedMove",
    "Move",
    "MoveRequest",
    "NotInPairing",
    "NotYourTurn",
    "NothingToRedo",
    "NothingToUndo",
    "OutOfBounds",
    "Outcome",
    "Pairing",
    "Points",
    "Result",
    "ResultAlreadyRecorded",
    "Round",
    "Rules",
    "RulesError",
    "Standing",
    "TooFewPlayers",
    "Tournament",
    "TournamentError",
    "UnknownPairing",
    "UnknownPlayer",
    "cell_name",
    "column_name",
    "decode",
    "ended_because",
    "encode",
    "geometry",
    "named_cell",
    "parse_move",
    "scan",
    "schedule",
    "typed_key",
]
