"""Building a book with the project's own solver: a strategy for each side, proven move by move.

For each side asked (``BookSide``: the bot moving first, second, or both in turn), the
book follows that side's play as the perfect bot: at its own turn one move that keeps the
proven value (``Solver.best``), at the opponent's turn every reply. A position of the bot's
own turn that a fresh solver proves within ``leaf_nodes`` nodes (what a bot's live search
manages within its budget) is a *leaf*: its value and move are stored and the book goes no
deeper, since the live search takes over there. Every other position is proven by one
solver whose table serves the whole build. A position the opponent moves in gets its value
from its children (each either the game's end or a book position), so it costs no search.
``max_plies`` bounds the depth for boards the solver cannot finish (their deepest positions
are then proven whatever it costs).

One side alone is what makes a large board feasible: on a board the first player wins
(Connect Four 7×6), the second player's strategy is a tree of lost positions, each
answering every move of the first player, and proves nothing a bot starting there needs.

A position can be the bot's turn in one side's strategy and the opponent's in the other's:
``roles`` says in which its subtree is finished (a book position the bot meets keeps the
bot's own move, whose replies the book holds). Progress is resumable: a ``Snapshot`` holds
the side, ``done`` the entries, ``roles`` which subtrees are finished, ``proven`` the bot's
positions proven but not yet finished below; a build given it back skips what it holds. It
must be the snapshot of a build of the same side (else ``SideMismatch``), so a book never
holds a strategy it was not asked for, nor lacks one its build promised.
``on_progress`` is called after every position finished (the caller decides when to save
``BookBuilder.snapshot()``), ``on_search`` by the solver during a long proof.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from ...errors import GameError
from ...game import Game
from ...rules import Rules
from ..budget import UNLIMITED, Budget, OutOfBudget
from ..solver import SearchProgress, Solver, check_two_players
from ..table import LARGE_BUCKETS
from .codec import pack, unpack
from .keys import book_keys

__all__ = [
    "DEFAULT_LEAF_NODES",
    "BookBuilder",
    "BookSide",
    "BuildProgress",
    "SideMismatch",
    "Snapshot",
]

DEFAULT_LEAF_NODES = 2_000  # ~0.05 s of the pure search: a bot's proof at 0.1 s of 0.2 s
_LEAF_BUCKETS = 1 << 12
BOT, OPPONENT = 1, 2  # roles a position's subtree was finished in (``roles``), as flags


class BookSide(Enum):
    """Whose strategy a build walks: the bot moving first, moving second, or both."""

    FIRST = "first"
    SECOND = "second"
    BOTH = "both"

    @property
    def bot_moves_first(self) -> tuple[bool, ...]:
        """For each strategy walked, in order, whether the bot makes the first move."""
        return {BookSide.FIRST: (True,), BookSide.SECOND: (False,)}.get(self, (True, False))


class SideMismatch(GameError):
    """A build resumed from the progress of a build of another side (``saved``)."""

    code = "book_side_mismatch"

    def __init__(self, saved: BookSide, asked: BookSide) -> None:
        super().__init__(f"the progress is of a build of side {saved.value!r}, not {asked.value!r}")
        self.saved = saved
        self.asked = asked


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a later build of the same ``side`` needs to resume (``BookBuilder.snapshot``)."""

    side: BookSide
    done: dict[int, int] = field(default_factory=dict)
    proven: dict[int, int] = field(default_factory=dict)
    roles: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BuildProgress:
    done: int  # positions whose subtree is finished
    proven: int  # the bot's positions proven by the build's solver (not leaves)
    leaves: int
    ply: int  # of the position just finished
    deepest: int
    seconds: float


class BookBuilder:
    def __init__(
        self,
        rules: Rules,
        *,
        side: BookSide = BookSide.BOTH,
        leaf_nodes: int = DEFAULT_LEAF_NODES,
        max_plies: int | None = None,
        resume: Snapshot | None = None,
        on_progress: Callable[[BuildProgress], None] | None = None,
        on_search: Callable[[SearchProgress], None] | None = None,
        table_buckets: int = LARGE_BUCKETS,
    ) -> None:
        check_two_players(rules)
        resume = resume or Snapshot(side)
        if resume.side is not side:
            raise SideMismatch(resume.side, side)
        self.rules = rules
        self.side = side
        self.leaf_nodes = leaf_nodes
        self.max_plies = max_plies
        self.done: dict[int, int] = dict(resume.done)
        self.proven: dict[int, int] = dict(resume.proven)
        self.roles: dict[int, int] = dict(resume.roles)
        self.leaves = 0
        self.deepest = 0
        self._keys = book_keys(rules)
        self._solver = Solver(rules, table_buckets=table_buckets, on_progress=on_search)
        self._on_progress = on_progress
        self._started = time.monotonic()

    def build(self) -> dict[int, int]:
        """The strategies of ``side`` from the empty board; the packed entries by key."""
        for bot_moves_first in self.side.bot_moves_first:
            self._visit(Game(self.rules), bot_to_move=bot_moves_first)
        return self.done

    def snapshot(self) -> Snapshot:
        """What a later build of the same side needs to resume."""
        return Snapshot(self.side, dict(self.done), dict(self.proven), dict(self.roles))

    # -- the walk -------------------------------------------------------------------------

    def _visit(self, game: Game, *, bot_to_move: bool) -> int:
        """The value of ``game``'s position for the side to move, its subtree finished."""
        key, sym = self._keys.key(game.board.cells)
        role = BOT if bot_to_move else OPPONENT
        packed = self.done.get(key)
        if packed is not None and self.roles.get(key, 0) & role:
            return unpack(packed)[0]
        if bot_to_move:
            value, move = self._bot_move(game, key, sym)
            if move is None:
                return value  # a leaf: stored already
            child = game.copy()
            child.play_index(move)
            if not child.is_over:
                reply = -self._visit(child, bot_to_move=False)
                if reply != value:
                    raise AssertionError(f"the book's walk disagrees at {game.board.text}")
            self._finish(key, value, self._keys.to_keyed(move, sym), game.ply, BOT)
            return value
        best, best_move = -2, -1
        for index in game.legal_indices():
            child = game.copy()
            child.play_index(index)
            score = -_end_value(child) if child.is_over else -self._visit(child, bot_to_move=True)
            if score > best:
                best, best_move = score, index
        if packed is not None:  # a bot's position too: its move leads into its own strategy
            if unpack(packed)[0] != best:
                raise AssertionError(f"the book's walk disagrees at {game.board.text}")
            best_move = self._keys.from_keyed(unpack(packed)[1], sym)
        self._finish(key, best, self._keys.to_keyed(best_move, sym), game.ply, OPPONENT)
        return best

    def _bot_move(self, game: Game, key: int, sym: int) -> tuple[int, int | None]:
        """(value, the move to follow), or (value, None) for a leaf, stored at once."""
        packed = self.proven.get(key)
        if packed is not None:
            value, keyed = unpack(packed)
            return value, self._keys.from_keyed(keyed, sym)
        quick = Solver(self.rules, table_buckets=_LEAF_BUCKETS)
        position = quick.start(game, Budget(seconds=None, nodes=self.leaf_nodes))
        deep_enough = self.max_plies is not None and game.ply >= self.max_plies
        try:
            value, bit = quick.best(position)
        except OutOfBudget:
            solver = self._solver
            position = solver.start(game, UNLIMITED)
            value, bit = solver.best(position)
            if not deep_enough:
                move = solver.layout.index(bit)
                self.proven[key] = pack(value, self._keys.to_keyed(move, sym))
                return value, move
        self.leaves += 1
        self._finish(key, value, self._keys.to_keyed(quick.layout.index(bit), sym), game.ply, BOT)
        return value, None

    def _finish(self, key: int, value: int, keyed_move: int, ply: int, role: int) -> None:
        if key not in self.done or role == BOT:  # a bot's own move wins over the best reply
            self.done[key] = pack(value, keyed_move)
        self.roles[key] = self.roles.get(key, 0) | role
        self.proven.pop(key, None)
        self.deepest = max(self.deepest, ply)
        if self._on_progress is not None:
            self._on_progress(
                BuildProgress(
                    len(self.done),
                    len(self.proven),
                    self.leaves,
                    ply,
                    self.deepest,
                    time.monotonic() - self._started,
                )
            )


def _end_value(game: Game) -> int:
    """The value of a finished game for the side that would move next."""
    outcome = game.outcome
    assert outcome is not None
    if outcome.winner is None and outcome.loser is None:
        return 0
    mover = game.turn
    if outcome.winner == mover or (outcome.loser is not None and outcome.loser != mover):
        return 1
    return -1
