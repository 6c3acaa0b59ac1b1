"""The perfect-play solver: win/draw/loss proved by alpha-beta on bitboards, then the distance.

Two searches over ``core.ai.bitboard`` positions (``core.ai.value_search`` and
``core.ai.distance_search``, each a closure the solver builds once), both complete (no
horizon, no guess), so every result they return is a proof and every table entry stays true
for good:

- ``value``: the win/draw/loss value for the side to move, by negamax with alpha-beta on the
  three values -1, 0, 1 (every window is a null window or (-1, 1)). A bounded transposition
  table (``core.ai.table``) keeps lower and upper bounds per position and its best move,
  packed in one int (``move << 4 | (upper + 1) << 2 | (lower + 1)``), keyed canonically over
  the board's symmetries in the opening, where transpositions through a symmetry are common.
- ``wins_within`` / ``loses_within``: whether the side to move wins (loses) with the game
  ending within n plies; the smallest such n is the distance to the end of best play, found
  by deepening n one ply at a time (each probe is a yes/no proof with its own table).

Sound shortcuts, in normal play: a side with a winning cell wins; facing two winning cells it
loses; facing one it must block it, and under gravity never plays right under an opponent's
winning cell (that hands it the cell); a side that can no longer complete any line cannot
win, and when neither side can the game is a draw. Under misère a side never completes its
own line while another move exists. Moves: the table's best move first, then
``core.ai.ordering``'s order.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..game import Game
from ..rules import Rules
from .bitboard import BitLayout, bit_layout
from .budget import UNLIMITED, Budget, Clock, OutOfBudget
from .distance_search import make_distance_search
from .errors import UnsupportedGame
from .ordering import static_order
from .speedups import compiled_search
from .symmetry import symmetries
from .table import DEFAULT_BUCKETS, EntryTable, TranspositionTable, bucket_count
from .value_search import SYMMETRY_PLIES, make_value_search

__all__ = ["Position", "SearchProgress", "Solver", "check_two_players"]

CHECK_EVERY = 8192  # cells times nodes between looks at the clock (a node costs ~ cells)
COMPILED_CHECK_EVERY = 4096  # nodes between looks in C (~1 ms: a node costs ~0.25 µs)
SYMMETRY_BITS = 512  # larger bitboards (huge 3D boards) are keyed without symmetry

Position = tuple[int, int]  # (the side to move's marks, every mark), as bitboards


@dataclass(frozen=True, slots=True)
class SearchProgress:
    """A progress report, made while a long search runs (e.g. once a second)."""

    phase: str  # "value" (proving win/draw/loss) or "distance" (plies to the end)
    nodes: int
    table_size: int
    seconds: float


def check_two_players(rules: Rules) -> None:
    if rules.players != 2:
        raise UnsupportedGame(
            f"the solver plays two-player games; these rules have {rules.players} players"
        )


class Solver:
    """One solver per rules; its tables outlive a search (a bot reuses them move to move).

    Every entry is proven, so a search cut short by its budget leaves the tables true.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        table_buckets: int = DEFAULT_BUCKETS,
        on_progress: Callable[[SearchProgress], None] | None = None,
        progress_every: float = 1.0,
        clock: Clock = time.perf_counter,
        pure: bool = False,
    ) -> None:
        """``pure``: run the pure-Python searches even where the compiled ones could
        (core.ai.speedups says when it can)."""
        check_two_players(rules)
        self.rules = rules
        self.layout: BitLayout = bit_layout(rules)
        self.table: EntryTable = TranspositionTable(table_buckets)
        self.distance_table = TranspositionTable(max(1, table_buckets // 4))
        self._on_progress = on_progress
        self._progress_every = progress_every
        self._clock = clock
        self.phase = "value"
        self._started = clock()
        self._end: float | None = None
        self._cap: int | None = None  # the node limit now in force (budget or local)
        self._budget_cap: int | None = None
        self._last_report = self._started
        self._base = 0  # nodes counted before the current countdown
        self._every = max(16, min(1024, CHECK_EVERY // self.layout.cells))
        self.countdown = self._counted = self._every
        self.order = static_order(self.layout)
        # the symmetry tables grow with the board; past SYMMETRY_BITS the opening's
        # transpositions through a symmetry are not worth them
        self.sym_tables = self.layout.symmetry_tables() if self.layout.bits <= SYMMETRY_BITS else ()
        self._inverse = _inverse_symmetries(rules)
        compiled = None
        if not pure:
            buckets = bucket_count(table_buckets), bucket_count(max(1, table_buckets // 4))
            compiled = compiled_search(self, *buckets)
        self.implementation = "pure" if compiled is None else "compiled"
        """Which searches run: "compiled" (core/ai/_search.c) or "pure" (Python)."""
        if compiled is None:
            self._value = make_value_search(self)
            self._wins, self._loses = make_distance_search(self)
        else:
            self.table = compiled
            self._value, self._wins, self._loses = compiled.search, compiled.wins, compiled.loses
            self._every = COMPILED_CHECK_EVERY
            self.countdown = self._counted = self._every

    # -- budget ---------------------------------------------------------------------------

    @property
    def table_size(self) -> int:
        return len(self.table)

    def start(self, game: Game, budget: Budget = UNLIMITED) -> Position:
        """Begin a budget for searches of ``game``'s position; returns that position."""
        if game.rules != self.rules:
            raise UnsupportedGame(
                f"this solver is for {self.rules.describe()}, not {game.rules.describe()}"
            )
        self._started = self._last_report = self._clock()
        self._end = None if budget.seconds is None else self._started + budget.seconds
        self._budget_cap = self._cap = budget.nodes
        self._base = self.countdown = self._counted = 0
        self._rearm()
        return self.layout.bits_of_cells(game.board.cells)

    @property
    def nodes(self) -> int:
        """Nodes searched within the current budget."""
        return self._base + self._counted - self.countdown

    def elapsed(self) -> float:
        return self._clock() - self._started

    def spent(self) -> bool:
        """Whether the budget is used up (checked now, without raising)."""
        if self._budget_cap is not None and self.nodes >= self._budget_cap:
            return True
        return self._end is not None and self._clock() >= self._end

    def limit_nodes(self, extra: int | None) -> None:
        """Allow at most ``extra`` more nodes (None: only the budget's limit) from now."""
        cap = self._budget_cap
        if extra is not None:
            cap = self.nodes + extra if cap is None else min(cap, self.nodes + extra)
        self._cap = cap
        self._rearm()

    def _rearm(self) -> None:
        """Fold the nodes counted so far and count down to the next look (or the cap)."""
        self._base = self.nodes
        every = self._every
        if self._cap is not None:
            every = max(1, min(every, self._cap - self._base))
        self.countdown = self._counted = every

    def check_clock(self) -> None:
        """Every few nodes: count them, report progress, stop when the budget is spent."""
        self._base += self._counted - self.countdown
        self.countdown = self._counted = 1  # until rearmed below: the next node looks again
        if self._cap is not None and self._base >= self._cap:
            raise OutOfBudget
        now = self._clock()
        if self._end is not None and now >= self._end:
            raise OutOfBudget
        if self._on_progress is not None and now - self._last_report >= self._progress_every:
            self._last_report = now
            self._on_progress(
                SearchProgress(self.phase, self.nodes, len(self.table), now - self._started)
            )
        self._rearm()

    # -- questions ------------------------------------------------------------------------

    def value(self, position: Position) -> int:
        """The value for the side to move: 1 a win, 0 a draw, -1 a loss (OutOfBudget when
        the budget runs out first). ``position`` must not be finished."""
        self.phase = "value"
        me, mask = position
        return self._value(me, mask, -1, 1)

    def best(self, position: Position) -> tuple[int, int]:
        """(value for the side to move, a move that keeps it): the root of a proof.
        ``position`` must not be finished; OutOfBudget when the budget runs out first."""
        self.phase = "value"
        moves = self.moves(position)
        hint = self.best_move_hint(position)
        if hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        me, mask = position
        alpha, found, best_move = -1, -2, moves[0]
        for move in moves:
            ending = self.ending(position, move)
            if ending is not None:
                score = ending
            else:
                score = -self._value(me ^ mask, mask | move, -1, -alpha)
            if score > found:
                found, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= 1:
                        break
        return found, best_move

    def move_value(self, position: Position, move: int) -> int:
        """The value of playing ``move`` (a one-bit move) for the side playing it."""
        me, mask = position
        ending = self.ending(position, move)
        if ending is not None:
            return ending
        self.phase = "value"
        return -self._value(me ^ mask, mask | move, -1, 1)

    def move_at_least(self, position: Position, move: int, bound: int) -> bool:
        """Whether playing ``move`` is worth at least ``bound`` to its player (a null
        window: cheaper than the exact value)."""
        me, mask = position
        ending = self.ending(position, move)
        if ending is not None:
            return ending >= bound
        self.phase = "value"
        return -self._value(me ^ mask, mask | move, -bound, -bound + 1) >= bound

    def ending(self, position: Position, move: int) -> int | None:
        """The value of ``move`` for its player when it ends the game, else None."""
        layout = self.layout
        me, mask = position
        if layout.won(me | move):
            return -1 if layout.misere else 1
        if (mask | move) == layout.board:
            return 0
        return None

    def wins_within(self, position: Position, plies: int) -> bool:
        """Whether the side to move can force a win with the game over within ``plies``."""
        self.phase = "distance"
        me, mask = position
        return self._wins(me, mask, plies)

    def loses_within(self, position: Position, plies: int) -> bool:
        """Whether the side to move loses, whatever it plays, within ``plies``."""
        self.phase = "distance"
        me, mask = position
        return self._loses(me, mask, plies)

    def empty_cells(self, position: Position) -> int:
        return self.layout.cells - position[1].bit_count()

    def child(self, position: Position, move: int) -> Position:
        me, mask = position
        return me ^ mask, mask | move

    def moves(self, position: Position) -> list[int]:
        """The legal moves (one-bit), most promising first."""
        playable = self.layout.playable(position[1])
        return [m for m in self.order if m & playable]

    def canonical_key(self, position: Position) -> int:
        """The same int for two positions exactly when a symmetry maps one onto the other."""
        me, mask = position
        layout, bits = self.layout, self.layout.bits
        if not self.sym_tables:
            return (mask << bits) | me
        return min((layout.image(t, mask) << bits) | layout.image(t, me) for t in self.sym_tables)

    def best_move_hint(self, position: Position) -> int | None:
        """The table's best move at ``position``, if it has one."""
        me, mask = position
        key, sym = self.canonical_key_of(me, mask)
        entry = self.table.get(key)
        if entry is None or not entry >> 4:
            return None
        return self.unmap_move(entry >> 4, sym)

    # -- keys -----------------------------------------------------------------------------

    def canonical_key_of(self, me: int, mask: int) -> tuple[int, int]:
        """(table key, the symmetry that maps the position onto its keyed image)."""
        layout = self.layout
        bits = layout.bits
        if mask.bit_count() > SYMMETRY_PLIES or len(self.sym_tables) <= 1:
            return (mask << bits) | me, 0
        best, best_sym = -1, 0
        for sym, tables in enumerate(self.sym_tables):
            key = (layout.image(tables, mask) << bits) | layout.image(tables, me)
            if best < 0 or key < best:
                best, best_sym = key, sym
        return best, best_sym

    def map_move(self, move: int, sym: int) -> int:
        return move if sym == 0 else self.layout.image(self.sym_tables[sym], move)

    def unmap_move(self, move: int, sym: int) -> int:
        if sym == 0:
            return move
        return self.layout.image(self.sym_tables[self._inverse[sym]], move)


def _inverse_symmetries(rules: Rules) -> tuple[int, ...]:
    """For each symmetry, the index of its inverse."""
    perms = symmetries(rules)
    where = {perm: i for i, perm in enumerate(perms)}
    inverse = []
    for perm in perms:
        back = [0] * len(perm)
        for source, image in enumerate(perm):
            back[image] = source
        inverse.append(where[tuple(back)])
    return tuple(inverse)
