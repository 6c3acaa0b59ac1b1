"""The game: a state machine over a board whose end is a value (``Outcome``).

``Game`` owns a board and the strategies the rules name (placement, win detection,
scoring, early draw), keeps the move history, and can undo any move exactly. It is
synchronous and pure: no I/O, no clock; a room serialises it with ``core.codec``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .board import EMPTY, Board
from .early_draw import LiveWindows
from .errors import GameError, GameOver, MalformedMove, NothingToUndo, NotYourTurn, OutOfBounds
from .geometry import Geometry, geometry
from .move import Move, MoveRequest, parse_move
from .outcome import EndReason, Outcome
from .placement import make_placement
from .position import check_counts, check_settled, ending_line
from .rules import MARKS, Rules
from .scoring import make_scoring
from .wins import make_win_strategy

__all__ = ["Game", "GameListener"]


class GameListener:
    """Subclass and override what you need (the seeds' GameListener); all are no-ops here."""

    def on_move(self, game: Game, move: Move, mark: str) -> None:
        return None

    def on_undo(self, game: Game, move: Move, mark: str) -> None:
        return None

    def on_end(self, game: Game, outcome: Outcome) -> None:
        return None


class Game:
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
        coords = self.rules.coords
        return tuple(Move(*coords(i)) for i in self._placed[self._setup :])

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
        coords = self.rules.coords
        return [Move(*coords(i)) for i in self.legal_indices()]

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
            raise GameOver(f"the game is over ({self._outcome.reason.value}); no more moves")
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
        if self._outcome is not None:
            raise GameOver(f"the game is over ({self._outcome.reason.value}); no more moves")
        valid = isinstance(index, int) and not isinstance(index, bool)
        if not valid or not 0 <= index < len(self.board):
            raise OutOfBounds(f"cell index {index!r} is off the board")
        self._placement.check(self.board, index)
        return self._commit(index, len(self._placed) % self.rules.players + 1)

    def _index_of(self, move: Move) -> int:
        rules = self.rules
        row, col, layer = move.row, move.col, move.layer
        if not (type(row) is int and type(col) is int and type(layer) is int):  # fast path
            for name, value in (("row", row), ("col", col), ("layer", layer)):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise MalformedMove(f"{name} must be a whole number, got {value!r}")
        if not (0 <= row < rules.rows and 0 <= col < rules.cols and 0 <= layer < rules.layers):
            raise OutOfBounds(f"{move!r} is off the {rules.describe().split()[0]} board")
        return (layer * rules.rows + row) * rules.cols + col

    def _commit(self, index: int, code: int, move: Move | None = None) -> Move:
        """Put ``code`` on a validated ``index`` and settle the outcome; ``move`` names it."""
        board = self.board
        board.place(index, code)
        self._placement.placed(index)
        self._placed.append(index)
        if self._live is not None:
            self._live.place(index, code)
        line = self._wins.place(board.cells, index, code)
        coords = self.rules.coords
        if line is not None:
            cells = tuple(Move(*coords(c)) for c in line)
            self._outcome = self._scoring.line_completed(code, cells)
        elif board.is_full:
            self._outcome = Outcome(EndReason.BOARD_FULL)
        elif self._live is not None and self._live.alive == 0:
            self._outcome = Outcome(EndReason.NO_LINE_LEFT)
        self._ended_by_move = self._outcome is not None
        if move is None:
            move = Move(*coords(index))
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
                f"the game ended by {self._outcome.reason.value}; its moves cannot be taken back"
            )
        if len(self._placed) <= self._setup:
            raise NothingToUndo("there is no move to take back")
        index = self._placed.pop()
        code = self.board.cells[index]
        self.board.clear(index)
        self._placement.removed(index)
        self._wins.undo(self.board.cells, index, code)
        if self._live is not None:
            self._live.undo(index, code)
        self._outcome = None
        self._ended_by_move = False
        move = Move(*self.rules.coords(index))
        for listener in self._listeners:
            listener.on_undo(self, move, MARKS[code - 1])
        return move

    # -- endings decided outside the board (the room calls these) -------------------------

    def finish(self, outcome: Outcome) -> Outcome:
        if self._outcome is not None:
            raise GameOver(f"the game is already over ({self._outcome.reason.value})")
        for mark in (outcome.winner, outcome.loser):
            if mark is not None and mark not in self.rules.marks:
                raise GameError(f"{mark!r} is not a player in this game")
        self._outcome = outcome
        self._ended_by_move = False
        for listener in self._listeners:
            listener.on_end(self, outcome)
        return outcome

    def _against(self, reason: EndReason, mark: str) -> Outcome:
        if mark not in self.rules.marks:
            raise GameError(f"{mark!r} is not a player in this game")
        others = [m for m in self.rules.marks if m != mark]
        winner = others[0] if len(others) == 1 else None
        return self.finish(Outcome(reason, winner=winner, loser=mark))

    def resign(self, mark: str) -> Outcome:
        return self._against(EndReason.RESIGNATION, mark)

    def timeout(self, mark: str) -> Outcome:
        """``mark`` ran out of time."""
        return self._against(EndReason.TIMEOUT, mark)

    def abandon(self, mark: str, *, draw: bool = False) -> Outcome:
        """``mark`` left; the opponent claims the win, or a draw when ``draw``."""
        if draw:
            return self.finish(Outcome(EndReason.ABANDONMENT))
        return self._against(EndReason.ABANDONMENT, mark)

    def agree_draw(self) -> Outcome:
        return self.finish(Outcome(EndReason.AGREEMENT))

    def abort(self) -> Outcome:
        return self.finish(Outcome(EndReason.ABORTED))

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
        GameError when the position cannot arise under these rules.
        """
        board = Board.parse(text)
        if (board.rows, board.cols, board.layers) != (rules.rows, rules.cols, rules.layers):
            raise GameError(
                f"position {text!r} is {board.rows}×{board.cols}×{board.layers}, "
                f"the rules say {rules.rows}×{rules.cols}×{rules.layers}"
            )
        check_counts(rules, board)
        if rules.gravity:
            check_settled(rules, board)
        game = cls(rules, win_strategy=win_strategy)
        game._load(board)
        return game

    def _load(self, board: Board) -> None:
        """Put a checked position's marks on the board as a setup, bottom-up under gravity."""
        ending = ending_line(self.rules, self._geo, board)
        order = sorted(
            (i for i, code in enumerate(board.cells) if code != EMPTY),
            key=self._placement_order_key,
        )
        for index in order:
            code = board.cells[index]
            self.board.place(index, code)
            self._placement.placed(index)
            self._wins.place(self.board.cells, index, code)
            if self._live is not None:
                self._live.place(index, code)
        self._placed = order
        self._setup = len(order)
        if ending is not None:
            code, window = ending
            cells = tuple(Move(*self.rules.coords(c)) for c in window)
            self._outcome = self._scoring.line_completed(code, cells)
        elif board.is_full:
            self._outcome = Outcome(EndReason.BOARD_FULL)
        elif self._live is not None and self._live.alive == 0:
            self._outcome = Outcome(EndReason.NO_LINE_LEFT)
        self._ended_by_move = self._outcome is not None

    def _placement_order_key(self, index: int) -> tuple[int, int]:
        row, _, layer = self.rules.coords(index)
        # bottom-up when gravity matters, so stack heights grow in order
        return (layer, -row) if self.rules.gravity else (0, index)

    def copy(self) -> Game:
        """An independent game in the same state (listeners are not copied)."""
        from .codec import decode, encode

        return decode(encode(self), win_strategy=self.win_strategy)

    def __repr__(self) -> str:
        state = self._outcome.reason.value if self._outcome else f"{self.turn} to move"
        return f"<Game {self.rules.describe()} {self.board.text} {state}>"
