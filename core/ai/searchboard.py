"""The search's private fast board: place and undo in O(windows through the cell).

``Game`` validates, records and reports; a search needs none of that. ``SearchBoard`` keeps, per
k-window of ``core.geometry``, each player's mark count and how many players own marks there,
and maintains incrementally:

- whether the last move completed a line (``won``);
- how many windows are dead (held by two players or more);
- each player's *near* windows (k-1 own marks, the rest empty): its winning cells;
- each player's *potential*, ``sum(WEIGHTS[count])`` over the windows only it holds (open runs
  lie in more live windows, so weigh more);
- optionally one key per board symmetry, whose minimum is the solver's canonical key.

``tests/core/ai`` checks all of this against ``Game`` and a brute-force recount.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..game import Game
from ..geometry import geometry
from ..rules import Rules
from .symmetry import symmetries

__all__ = ["SearchBoard", "window_weights"]


def window_weights(k: int) -> tuple[int, ...]:
    """Threat weight of a window holding c marks of one player only: 0, 1, 8, 64, ..."""
    return (0, *(8 ** (c - 1) for c in range(1, k + 1)))


@lru_cache(maxsize=32)
def _key_bits(rules: Rules) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``[code][cell]``: per symmetry, the bit of ``code`` on ``cell``'s image.

    A key is the image position as one int (each player's marks in their own bit range),
    so two positions share a key exactly when they are equal.
    """
    n, perms = rules.cells, symmetries(rules)
    return (
        (),
        *(
            tuple(tuple(1 << (perm[i] + (code - 1) * n) for perm in perms) for i in range(n))
            for code in range(1, rules.players + 1)
        ),
    )


class SearchBoard:
    __slots__ = (
        "_height_of",
        "_key_bits",
        "_landing",
        "_stack_depth",
        "_stack_of",
        "cells",
        "counts",
        "dead",
        "empty",
        "gravity",
        "heights",
        "history",
        "k",
        "keys",
        "near",
        "owners",
        "players",
        "ply",
        "potential",
        "rules",
        "weights",
        "windows",
        "windows_of",
        "won",
    )

    def __init__(self, rules: Rules, *, with_keys: bool = False) -> None:
        geo = geometry(rules)
        self.rules = rules
        self.k = rules.k
        self.players = rules.players
        self.gravity = rules.gravity
        self.windows: tuple[tuple[int, ...], ...] = geo.windows
        self.windows_of: tuple[tuple[int, ...], ...] = geo.windows_by_cell()
        self.weights = window_weights(rules.k)
        self.cells = [0] * rules.cells
        self.counts = [[0] * len(geo.windows) for _ in range(rules.players + 1)]
        self.owners = [0] * len(geo.windows)
        self.near: list[set[int]] = [set() for _ in range(rules.players + 1)]
        self.potential = [0] * (rules.players + 1)
        self.dead = 0
        self.empty = rules.cells
        self.ply = 0
        self.won = False
        self.history: list[int] = []
        self._init_gravity(rules)
        self.keys: list[int] | None = None
        self._key_bits: tuple[tuple[tuple[int, ...], ...], ...] = ()
        if with_keys:
            self._key_bits = _key_bits(rules)
            self.keys = [0] * len(symmetries(rules))

    def _init_gravity(self, rules: Rules) -> None:
        cells = range(rules.cells)
        if rules.is_3d:  # a stack is a (row, col) pillar filling from layer 0 up
            self._stack_of = [rules.coords(i)[0] * rules.cols + rules.coords(i)[1] for i in cells]
            self._height_of = [rules.coords(i)[2] for i in cells]
            self._stack_depth = rules.layers
        else:  # a stack is a column filling from the bottom row up
            self._stack_of = [rules.coords(i)[1] for i in cells]
            self._height_of = [rules.rows - 1 - rules.coords(i)[0] for i in cells]
            self._stack_depth = rules.rows
        stacks = max(self._stack_of) + 1
        self._landing = [[0] * self._stack_depth for _ in range(stacks)]
        for i in cells:
            self._landing[self._stack_of[i]][self._height_of[i]] = i
        self.heights = [0] * stacks

    @classmethod
    def from_game(cls, game: Game, *, with_keys: bool = False) -> SearchBoard:
        """The game's current position (its setup and its moves alike)."""
        return cls.from_cells(game.rules, game.board.cells, with_keys=with_keys)

    @classmethod
    def from_cells(
        cls, rules: Rules, cells: Sequence[int], *, with_keys: bool = False
    ) -> SearchBoard:
        board = cls(rules, with_keys=with_keys)
        for index, code in enumerate(cells):
            if code:
                board.put(index, code)
        board.history.clear()  # the position is the root: searches undo only their own moves
        board.won = False
        return board

    # -- reading --------------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self.ply % self.players + 1

    @property
    def all_dead(self) -> bool:
        """No window can be completed by anyone any more: the game can only be drawn."""
        return self.dead == len(self.windows)

    def playable(self, index: int) -> bool:
        if self.cells[index]:
            return False
        return not self.gravity or self.heights[self._stack_of[index]] == self._height_of[index]

    def legal_moves(self) -> list[int]:
        if self.gravity:
            depth, landing = self._stack_depth, self._landing
            return sorted(landing[s][h] for s, h in enumerate(self.heights) if h < depth)
        return [i for i, code in enumerate(self.cells) if not code]

    def winning_cells(self, code: int) -> list[int]:
        """The cells ``code`` could play right now to complete a line, in index order."""
        if self.k == 1:
            return self.legal_moves()
        cells, found = self.cells, set()
        for w in self.near[code]:
            for cell in self.windows[w]:
                if not cells[cell]:
                    if self.playable(cell):
                        found.add(cell)
                    break
        return sorted(found)

    def canonical_key(self) -> int:
        assert self.keys is not None, "built without symmetry keys"
        return min(self.keys)

    # -- writing --------------------------------------------------------------------------

    def place(self, index: int) -> None:
        """The side to move plays ``index`` (not validated: the search passes legal cells)."""
        self.put(index, self.ply % self.players + 1)

    def put(self, index: int, code: int) -> None:
        self.cells[index] = code
        self.history.append(index)
        self.ply += 1
        self.empty -= 1
        if self.gravity:
            self.heights[self._stack_of[index]] += 1
        if self.keys is not None:
            self.keys = [a + b for a, b in zip(self.keys, self._key_bits[code][index], strict=True)]
        counts, owners, weights, pot = self.counts[code], self.owners, self.weights, self.potential
        k1, near, won = self.k - 1, self.near[code], False
        for w in self.windows_of[index]:
            c = counts[w]
            counts[w] = c + 1
            if c == 0:
                o = owners[w]
                owners[w] = o + 1
                if o == 0:
                    pot[code] += weights[1]
                    if k1 == 1:
                        near.add(w)
                elif o == 1:  # the window dies: it no longer counts for its sole owner
                    self.dead += 1
                    other = self._other_owner(w, code)
                    pot[other] -= weights[self.counts[other][w]]
                    self.near[other].discard(w)
                if k1 == 0:
                    won = True
            elif owners[w] == 1:
                pot[code] += weights[c + 1] - weights[c]
                if c == k1:
                    won = True
                    near.discard(w)
                elif c + 1 == k1:
                    near.add(w)
        self.won = won

    def undo(self) -> int:
        """Take back the last ``place``; returns its cell."""
        index = self.history.pop()
        code = self.cells[index]
        self.cells[index] = 0
        self.ply -= 1
        self.empty += 1
        self.won = False  # nobody plays on after a line, so the position before had none
        if self.gravity:
            self.heights[self._stack_of[index]] -= 1
        if self.keys is not None:
            self.keys = [a - b for a, b in zip(self.keys, self._key_bits[code][index], strict=True)]
        counts, owners, weights, pot = self.counts[code], self.owners, self.weights, self.potential
        k1, near = self.k - 1, self.near[code]
        for w in self.windows_of[index]:
            c = counts[w]
            counts[w] = c - 1
            if c == 1:
                o = owners[w]
                owners[w] = o - 1
                if o == 1:
                    pot[code] -= weights[1]
                    if k1 == 1:
                        near.discard(w)
                elif o == 2:  # the window comes back to life for its other owner
                    self.dead -= 1
                    other = self._other_owner(w, code)
                    held = self.counts[other][w]
                    pot[other] += weights[held]
                    if held == k1:
                        self.near[other].add(w)
            elif owners[w] == 1:
                pot[code] -= weights[c] - weights[c - 1]
                if c - 1 == k1:
                    near.add(w)
                elif c == k1:
                    near.discard(w)
        return index

    def _other_owner(self, w: int, code: int) -> int:
        """The one player other than ``code`` with marks in window ``w``."""
        if self.players == 2:
            return 3 - code
        return next(p for p in range(1, self.players + 1) if p != code and self.counts[p][w])
