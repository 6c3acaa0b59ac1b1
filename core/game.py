"""The game: a state machine over a board whose end is a value (``Outcome``).

``Game`` owns a board and the strategies the rules name (placement, win detection,
scoring, early draw), keeps the move history, can undo any move exactly and redo what it
took back. It is synchronous and pure: no I/O, no clock; a room serialises it with
``core.codec``, and ``copy`` gives an independent twin without replaying anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .board import Board
from .early_draw import LiveWindows
from .errors import (
    GameError,
    GameOver,
    MalformedMove,
    NothingToRedo,
    NothingToUndo,
    NotYourTurn,
    OutOfBounds,
)
from .geometry import Geometry, geometry
from .loading import checked_position, setup_order
from .move import Move, MoveRequest, parse_move
from .off_board import OffBoardEndings
from .outcome import EndReason, Outcome, ended_because
from .placement import make_placement, off_board
from .position import ending_line
from .rules import MARKS, Rules
from .scoring import make_scoring
from .wins import make_win_strategy

__all__ = ["Game", "GameListener"]


class GameListener:
    """An observer of one game (``Game.add_listener``): hears every move, undo and end after
    the game changed; ``Game.copy`` does not carry it over. Override the hooks you need."""

    def on_move(self, game: Game, move: Move, mark: str) -> None:
        return None

    def on_undo(self, game: Game, move: Move, mark: str) -> None:
        return None

    def on_end(self, game: Game, outcome: Outcome) -> None:
        return None


class Game(OffBoardEndings):
    def __init__(self, rules: Rules | None = None, *, win_strategy: str | None = None) -> None:
        self.rules = rules = rules if rules is not None else Rules()
        self._geo: Geometry = geometry(rules)
        self.board = Board(rules.rows, rules.cols, rules.layers)
        self._placement = make_placement(rules)
        self._wins = make_win_strategy(self._geo, rules.players, win_strategy)
        self._scoring = make_scoring(rules)
        self._live = LiveWindows(self._geo, rules.players) if rules.early_draw else None
        self._placed: list[int] = []  # every occupied cell in the order it was filled
        self._setup = 0  # how many of _placed came from a loaded position (not undoable)
        self._undone: list[int] = []  # cells taken back, the latest last: what redo replays
        self._outcome: Outcome | None = None
        self._ended_by_move = False
        self._listeners: list[GameListener] = []

    # -- state ----------------------------------------------------------------------------

    @property
    def win_strategy(self) -> str:
        return self._wins.name

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def ended_off_board(self) -> bool:
        """True when the end was decided by the room (resignation, timeout, ...)."""
        return self._outcome is not None and not self._ended_by_move

    @property
    def turn(self) -> str:
        """The mark to move (X first); still defined after the end, for display."""
        return MARKS[len(self._placed) % self.rules.players]

    @property
    def ply(self) -> int:
        """How many marks are on the board."""
        return len(self._placed)

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves played, in order (a loaded position's marks are not moves)."""
        moves = self._geo.moves
        return tuple(moves[i] for i in self._placed[self._setup :])

    @property
    def history_indices(self) -> tuple[int, ...]:
        return tuple(self._placed[self._setup :])

    @property
    def setup_text(self) -> str | None:
        """The position the game was loaded from, if it did not start from an empty board."""
        if not self._setup:
            return None
        board = Board(self.rules.rows, self.rules.cols, self.rules.layers)
        for index in self._placed[: self._setup]:
            board.place(index, self.board.cells[index])
        return board.text

    def legal_indices(self) -> list[int]:
        return [] if self._outcome is not None else self._placement.legal(self.board)

    def legal_moves(self) -> list[Move]:
        moves = self._geo.moves
        return [moves[i] for i in self.legal_indices()]

    # -- moves ----------------------------------------------------------------------------

    def play(
        self, move: Move | MoveRequest | Mapping[str, Any], *, mark: str | None = None
    ) -> Move:
        """Validate and play a move for the side to move (or for ``mark``, checked).

        ``move`` is an exact cell (``Move``), or a request that the placement rule resolves
        (gravity: a column). Returns the cell played. Raises a GameError subclass and
        changes nothing when the move is not legal.
        """
        if self._outcome is not None:
            raise GameOver(f"the game is over: {ended_because(self._outcome.reason)}")
        code = len(self._placed) % self.rules.players + 1
        if mark is not None and mark != MARKS[code - 1]:
            if mark not in self.rules.marks:
                raise NotYourTurn(f"{mark!r} is not a player in this game")
            raise NotYourTurn(f"it is {MARKS[code - 1]}'s turn, not {mark}'s")
        if isinstance(move, Move):
            index = self._index_of(move)
            self._placement.check(self.board, index)
            return self._commit(index, code, move)  # the Move is the cell: no need for another
        if isinstance(move, MoveRequest):
            index = self._placement.resolve(self.board, move)
        elif isinstance(move, Mapping):
            index = self._placement.resolve(self.board, parse_move(move))
        else:
            raise MalformedMove(f"a move must be a Move or an object with a col, got {move!r}")
        return self._commit(index, code)

    def play_index(self, index: int) -> Move:
        """Play a cell by index (search and replay use this); validated like ``play``."""
        self._check_index(index)
        return self._commit(index, len(self._placed) % self.rules.players + 1)

    def play_indices(self, indices: Iterable[int]) -> None:
        """Play cells by index in order, each validated as ``play_index`` does (decoding a
        stored game replays its record with this): the same GameErrors, without building a
        Move per cell. A refused cell leaves the cells before it played."""
        if self._listeners:  # they hear each move, as with play_index
            for index in indices:
                self.play_index(index)
            return
        players, board, placed, size = self.rules.players, self.board, self._placed, len(self.board)
        for index in indices:
            if self._outcome is not None or type(index) is not int or not 0 <= index < size:
                self._check_index(index)  # raises the error play_index would (or lets it be)
            else:
                self._placement.check(board, index)
            if self._undone:
                self._undone.clear()  # a new move: the taken-back moves are no longer ahead
            code = len(placed) % players + 1
            line = self._put(index, code)
            if line is not None or board.is_full or self._live is not None:
                self._settle(line, code)

    def _check_index(self, index: int) -> None:
        if self._outcome is not None:
            raise GameOver(f"the game is over: {ended_because(self._outcome.reason)}")
        valid = type(index) is int or (isinstance(index, int) and not isinstance(index, bool))
        if not valid or not 0 <= index < len(self.board.cells):
            raise OutOfBounds(f"cell index {index!r} is off the board")
        self._placement.check(self.board, index)

    def _index_of(self, move: Move) -> int:
        rules = self.rules
        row, col, layer = move.row, move.col, move.layer
        if not (type(row) is int and type(col) is int and type(layer) is int):  # fast path
            for name, value in (("row", row), ("col", col), ("layer", layer)):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise MalformedMove(f"{name} must be a whole number, got {value!r}")
        if not (0 <= row < rules.rows and 0 <= col < rules.cols and 0 <= layer < rules.layers):
            raise OutOfBounds(off_board(rules, row, col, layer))
        return (layer * rules.rows + row) * rules.cols + col

    def _put(self, index: int, code: int) -> tuple[int, ...] | None:
        """Put ``code`` on ``index`` and tell every strategy; the line it completes, if any."""
        self.board.place(index, code)
        self._placement.placed(index)
        self._placed.append(index)
        if self._live is not None:
            self._live.place(index, code)
        return self._wins.place(self.board.cells, index, code)

    def _settle(self, line: tuple[int, ...] | None, code: int) -> None:
        """The outcome after a mark of ``code`` was put (completing ``line``, if any)."""
        if line is not None:
            moves = self._geo.moves
            cells = tuple(moves[c] for c in line)
            self._outcome = self._scoring.line_completed(code, cells)
        elif self.board.is_full:
            self._outcome = Outcome(EndReason.BOARD_FULL)
        elif self._live is not None and self._live.alive == 0:
            self._outcome = Outcome(EndReason.NO_LINE_LEFT)
        self._ended_by_move = self._outcome is not None

    def _commit(self, index: int, code: int, move: Move | None = None) -> Move:
        """Play a validated new move: what was taken back can no longer be redone."""
        if self._undone:
            self._undone.clear()
        return self._place(index, code, move)

    def _place(self, index: int, code: int, move: Move | None = None) -> Move:
        """Put ``code`` on a validated ``index``, settle the outcome and tell the listeners;
        ``move`` names the cell when the caller has it."""
        self._settle(self._put(index, code), code)
        if move is None:
            move = self._geo.moves[index]
        if self._listeners:
            mark = MARKS[code - 1]
            for listener in self._listeners:
                listener.on_move(self, move, mark)
            if self._outcome is not None:
                for listener in self._listeners:
                    listener.on_end(self, self._outcome)
        return move

    def undo(self) -> Move:
        """Take back the last move, restoring exactly the state before it."""
        if self._outcome is not None and not self._ended_by_move:
            raise GameOver(
                f"the game ended because {ended_because(self._outcome.reason)}; "
                "its moves cannot be taken back"
            )
        if len(self._placed) <= self._setup:
            raise NothingToUndo("there is no move to take back")
        index = self._placed.pop()
        self._undone.append(index)
        code = self.board.cells[index]
        self.board.clear(index)
        self._placement.removed(index)
        self._wins.undo(self.board.cells, index, code)
        if self._live is not None:
            self._live.undo(index, code)
        self._outcome = None
        self._ended_by_move = False
        move = self._geo.moves[index]
        for listener in self._listeners:
            listener.on_undo(self, move, MARKS[code - 1])
        return move

    @property
    def can_redo(self) -> bool:
        """True when ``redo`` would replay a taken-back move."""
        return bool(self._undone) and self._outcome is None

    def redo(self) -> Move:
        """Play again the move ``undo`` took back last (undo, undo, redo, redo returns to
        where it started); a new move clears what was taken back. Like the copy's listeners,
        the taken-back moves belong to this object: ``core.codec`` does not store them."""
        if self._outcome is not None:
            raise GameOver(f"the game is over: {ended_because(self._outcome.reason)}")
        if not self._undone:
            raise NothingToRedo("there is no taken-back move to play again")
        index = self._undone[-1]
        self._placement.check(self.board, index)  # undo restored the board it was played on
        self._undone.pop()
        return self._place(index, len(self._placed) % self.rules.players + 1)

    # -- endings decided outside the board (the room calls these; core.off_board) ---------

    def finish(self, outcome: Outcome) -> Outcome:
        """End the game with ``outcome`` (a resignation, a timeout, ...), checked."""
        if self._outcome is not None:
            raise GameOver(f"the game is already over: {ended_because(self._outcome.reason)}")
        for mark in (outcome.winner, outcome.loser):
            if mark is not None and mark not in self.rules.marks:
                raise GameError(f"{mark!r} is not a player in this game")
        self._outcome = outcome
        self._ended_by_move = False
        for listener in self._listeners:
            listener.on_end(self, outcome)
        return outcome

    # -- listeners ------------------------------------------------------------------------

    def add_listener(self, listener: GameListener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: GameListener) -> None:
        self._listeners.remove(listener)

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def replay(
        cls,
        rules: Rules,
        moves: Iterable[Move | MoveRequest | Mapping[str, Any]],
        *,
        win_strategy: str | None = None,
    ) -> Game:
        """A game with ``moves`` played in order from the empty board (each one validated)."""
        game = cls(rules, win_strategy=win_strategy)
        for move in moves:
            game.play(move)
        return game

    @classmethod
    def from_position(cls, rules: Rules, text: str, *, win_strategy: str | None = None) -> Game:
        """A game from a position in text form; the side to move follows from the counts.

        The position's marks are a setup, not moves: they cannot be undone. Raises a
        GameError when the position cannot arise under these rules (core.loading).
        """
        board = checked_position(rules, text)
        game = cls(rules, win_strategy=win_strategy)
        ending = ending_line(rules, game._geo, board)  # checked before anything is placed
        for index in setup_order(rules, board):
            game._put(index, board.cells[index])  # a line found here is the ending's
        game._setup = len(game._placed)
        code, line = ending if ending is not None else (0, None)
        game._settle(line, code)
        return game

    def copy(self) -> Game:
        """An independent game in the same state, without replaying anything: the board,
        the history and the stateful strategies' counters are copied (O(cells + plies)),
        the rules, geometry and stateless strategies shared. Listeners watch one game and
        are not copied."""
        state = self.__dict__.copy()  # what is immutable or stateless is shared...
        state["board"] = self.board.copy()  # ... and what a move changes is copied
        state["_placement"] = self._placement.copy()
        state["_wins"] = self._wins.copy()
        state["_live"] = self._live.copy() if self._live is not None else None
        state["_placed"] = self._placed.copy()
        state["_undone"] = self._undone.copy()
        state["_listeners"] = []
        twin = object.__new__(type(self))
        twin.__dict__ = state  # one dict copied, not filled key by key: a copy per command
        return twin

    def __repr__(self) -> str:
        state = self._outcome.reason.value if self._outcome else f"{self.turn} to move"
        return f"<Game {self.rules.describe()} {self.board.text} {state}>"
