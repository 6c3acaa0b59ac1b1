"""Rules of one game of the family: board shape, k in a row, gravity, misère, players, 3D.

Rules are an immutable value, validated on construction; every error names the field.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from .errors import RulesError

__all__ = ["MARKS", "MAX_LAYERS", "MAX_SIDE", "Rules"]

MARKS: tuple[str, ...] = ("X", "O", "A", "B")
"""Marks in turn order: X always moves first, then O, then the third and fourth players."""

MAX_SIDE = 19
MAX_LAYERS = 8

_BOOL_FIELDS = ("gravity", "misere", "early_draw")
_INT_FIELDS = ("rows", "cols", "k", "players", "layers")


def _check_int(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(name, f"must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise RulesError(name, f"must be from {low} to {high}, got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Rules:
    """``Rules(rows=7, cols=6, k=4, gravity=True)`` is Connect Four on its side, etc.

    ``k=0`` (the default) means "the board's full line": the shortest side longer than one
    cell, so 3 on 3×3 and 4 on 4×4×4.
    """

    rows: int = 3
    cols: int = 3
    k: int = 0
    gravity: bool = False
    misere: bool = False
    players: int = 2
    layers: int = 1
    early_draw: bool = False

    def __post_init__(self) -> None:
        _check_int("rows", self.rows, 1, MAX_SIDE)
        _check_int("cols", self.cols, 1, MAX_SIDE)
        _check_int("layers", self.layers, 1, MAX_LAYERS)
        _check_int("players", self.players, 2, len(MARKS))
        for name in _BOOL_FIELDS:
            if not isinstance(getattr(self, name), bool):
                raise RulesError(name, f"must be true or false, got {getattr(self, name)!r}")
        sides = [self.rows, self.cols] + ([self.layers] if self.layers > 1 else [])
        _check_int("k", self.k, 0, MAX_SIDE)  # before the default: False and 0.0 are not 0
        if self.k == 0:
            longer = [s for s in sides if s > 1]
            object.__setattr__(self, "k", min(longer) if longer else 1)
        longest = max(sides)
        if self.k > longest:
            raise RulesError(
                "k", f"{self.k} in a row cannot fit on a board whose longest line is {longest}"
            )
        stacks = self.rows * self.cols if self.is_3d else self.cols
        if self.gravity and stacks == 1 and self.k > 1:
            raise RulesError(
                "k",
                f"{self.k} in a row is impossible with gravity and a single "
                f"{'pillar' if self.is_3d else 'column'}: the players' marks alternate up it",
            )
        cells = self.rows * self.cols * self.layers
        first_player_cells = -(-cells // self.players)
        if self.k > first_player_cells:
            raise RulesError(
                "k",
                f"{self.k} in a row is impossible: with {self.players} players on {cells} cells "
                f"nobody places more than {first_player_cells} marks",
            )

    # -- geometry helpers -----------------------------------------------------------------

    @property
    def cells(self) -> int:
        return self.rows * self.cols * self.layers

    @property
    def is_3d(self) -> bool:
        return self.layers > 1

    @property
    def marks(self) -> tuple[str, ...]:
        return MARKS[: self.players]

    def index(self, row: int, col: int, layer: int = 0) -> int:
        return (layer * self.rows + row) * self.cols + col

    def coords(self, index: int) -> tuple[int, int, int]:
        """(row, col, layer) of a cell index."""
        layer, rest = divmod(index, self.rows * self.cols)
        row, col = divmod(rest, self.cols)
        return row, col, layer

    # -- plain-dict form ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The plain form, a new dict each time (the caller may change it). Built once per
        distinct rules and copied, as ``asdict`` is far dearer than a copy and every welcome
        snapshot, room summary and created room's answer asks for it."""
        return dict(_plain(self))  # flat: ints and bools, so a shallow copy shares nothing

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a plain mapping (a request body, a stored room); unknown keys refused."""
        if not isinstance(data, Mapping):
            raise RulesError("rules", f"must be an object, got {data!r}")
        known = set(_INT_FIELDS) | set(_BOOL_FIELDS)
        for key in data:
            if key not in known:
                raise RulesError(str(key), f"is not a rule (known: {', '.join(sorted(known))})")
        return cls(**dict(data))

    def describe(self) -> str:
        """A short human label: ``3×3 k=3``, ``7×6 k=4 gravity``, ``4×4×4 k=4``."""
        shape = f"{self.rows}×{self.cols}" + (f"×{self.layers}" if self.is_3d else "")
        extras = [name for name in ("gravity", "misere") if getattr(self, name)]
        if self.players > 2:
            extras.append(f"{self.players} players")
        if self.early_draw:
            extras.append("early draw")
        return " ".join([shape, f"k={self.k}", *extras])


@functools.lru_cache(maxsize=256)  # distinct rules: a handful in practice
def _plain(rules: Rules) -> dict[str, Any]:
    """The plain form of ``rules``, shared: ``Rules.to_dict`` hands out copies."""
    return asdict(rules)
