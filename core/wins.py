"""Win detection as pluggable strategies (the seeds' WinChecker / WinStrategy).

A strategy is told of each placement and undo and answers with the completed line's cells,
or None. Two are built in and found by name:

- ``counter``: when no line on the board is longer than k (k is "the full line"), keep a
  count per line and per player, bumped on each move: O(1) per move, no cell read at all.
  This is the seeds' ±1 trick generalised to more than two players.
- ``connect``: walk out from the last move in every direction: O(k) cell reads per move,
  whatever the board size.

``scan`` is the brute-force reference the property tests compare both against.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar, Protocol

from .errors import GameError
from .geometry import Geometry

Lines = tuple[tuple[int, ...], ...]

__all__ = [
    "WIN_STRATEGIES",
    "ConnectStrategy",
    "CounterStrategy",
    "WinStrategy",
    "make_win_strategy",
    "scan",
]


class WinStrategy(Protocol):
    name: ClassVar[str]

    def place(self, cells: Sequence[int], index: int, code: int) -> tuple[int, ...] | None:
        """Called after ``cells[index] = code``; the completed line through it, if any."""

    def undo(self, cells: Sequence[int], index: int, code: int) -> None:
        """Called after ``code`` was removed from ``index``."""

    def copy(self) -> WinStrategy:
        """An independent twin for a copied game (a stateless one may return itself)."""


class CounterStrategy:
    name: ClassVar[str] = "counter"

    @staticmethod
    def supports(geo: Geometry) -> bool:
        return _k_is_the_longest_line(geo)

    def __init__(self, geo: Geometry, players: int) -> None:
        if not self.supports(geo):
            raise ValueError("the counter strategy needs k to be the longest line")
        self._k = geo.k
        self._players = players
        self._lines, self._lines_of_cell = _counted_lines(geo)
        self._counts = [0] * (len(self._lines) * (players + 1))

    def place(self, cells: Sequence[int], index: int, code: int) -> tuple[int, ...] | None:
        stride, counts, won = self._players + 1, self._counts, None
        for line in self._lines_of_cell[index]:
            slot = line * stride + code
            counts[slot] += 1
            if counts[slot] == self._k and won is None:
                won = self._lines[line]
        return won

    def undo(self, cells: Sequence[int], index: int, code: int) -> None:
        stride, counts = self._players + 1, self._counts
        for line in self._lines_of_cell[index]:
            counts[line * stride + code] -= 1

    def copy(self) -> CounterStrategy:
        state = self.__dict__.copy()  # the line tables are shared
        state["_counts"] = self._counts.copy()
        twin = object.__new__(CounterStrategy)
        twin.__dict__ = state  # one dict copied, not filled key by key: a copy per command
        return twin


@lru_cache(maxsize=64)
def _k_is_the_longest_line(geo: Geometry) -> bool:
    """Asked for every new game (which strategy fits): answered once per shape."""
    return all(len(line) <= geo.k for line in geo.lines)


@lru_cache(maxsize=64)
def _counted_lines(geo: Geometry) -> tuple[Lines, Lines]:
    lines = tuple(line for line in geo.lines if len(line) == geo.k)
    of_cell: list[list[int]] = [[] for _ in range(geo.cells)]
    for lid, line in enumerate(lines):
        for cell in line:
            of_cell[cell].append(lid)
    return lines, tuple(tuple(ids) for ids in of_cell)


class ConnectStrategy:
    name: ClassVar[str] = "connect"

    @staticmethod
    def supports(geo: Geometry) -> bool:
        return True

    def __init__(self, geo: Geometry, players: int) -> None:
        self._k = geo.k
        self._rays = _rays(geo)

    def place(self, cells: Sequence[int], index: int, code: int) -> tuple[int, ...] | None:
        k = self._k
        for forward, backward in self._rays[index]:
            ahead = 0
            for cell in forward:
                if cells[cell] != code:
                    break
                ahead += 1
            behind = 0
            for cell in backward:
                if cells[cell] != code:
                    break
                behind += 1
            if ahead + behind + 1 >= k:
                return (*reversed(backward[:behind]), index, *forward[:ahead])
        return None

    def undo(self, cells: Sequence[int], index: int, code: int) -> None:
        return None  # stateless: it reads the board

    def copy(self) -> ConnectStrategy:
        return self


@lru_cache(maxsize=64)
def _rays(geo: Geometry) -> tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...]:
    """For each cell and direction: the up to k-1 cells ahead and the up to k-1 behind."""
    reach = geo.k - 1
    table = []
    for index in range(geo.cells):
        layer, rest = divmod(index, geo.rows * geo.cols)
        row, col = divmod(rest, geo.cols)
        per_direction = []
        for dl, dr, dc in geo.directions:
            rays = []
            for sign in (1, -1):
                ray = []
                for step in range(1, reach + 1):
                    at = (layer + sign * step * dl, row + sign * step * dr, col + sign * step * dc)
                    if not geo.inside(*at):
                        break
                    ray.append(geo.index(*at))
                rays.append(tuple(ray))
            if rays[0] or rays[1] or geo.k == 1:
                per_direction.append((rays[0], rays[1]))
        table.append(tuple(per_direction))
    return tuple(table)


WIN_STRATEGIES: dict[str, type[CounterStrategy] | type[ConnectStrategy]] = {
    CounterStrategy.name: CounterStrategy,
    ConnectStrategy.name: ConnectStrategy,
}


def make_win_strategy(geo: Geometry, players: int, name: str | None = None) -> WinStrategy:
    """The named strategy, or (name None) the fastest one that fits this board."""
    if name is None:
        name = "counter" if CounterStrategy.supports(geo) else "connect"
    try:
        cls = WIN_STRATEGIES[name]
    except KeyError:
        known = ", ".join(sorted(WIN_STRATEGIES))
        raise GameError(f"unknown win strategy {name!r} (known: {known})") from None
    if not cls.supports(geo):
        raise GameError(f"win strategy {name!r} does not fit k={geo.k} on this board")
    return cls(geo, players)


def scan(geo: Geometry, cells: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Brute force: every k-window filled by one player, as (code, window)."""
    found = []
    for window in geo.windows:
        first = cells[window[0]]
        if first and all(cells[c] == first for c in window):
            found.append((first, window))
    return found
