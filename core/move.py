"""A move names a cell; the protocol's plain-dict form of a move request is parsed here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import MalformedMove

__all__ = ["Move", "MoveRequest", "parse_move"]


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A cell: row and column from the top left, layer from the bottom (0 on 2D boards)."""

    row: int
    col: int
    layer: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"row": self.row, "col": self.col, "layer": self.layer}

    def __str__(self) -> str:
        return f"{self.row},{self.col}" + (f",{self.layer}" if self.layer else "")


def _check_coordinate(name: str, value: object, *, optional: bool) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMove(f"{name} must be a whole number, got {value!r}")


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """What a player asked for; ``row`` (and ``layer``) may be None when gravity decides.

    Built from untrusted input, so the types are checked here: MalformedMove, not TypeError.
    """

    col: int
    row: int | None = None
    layer: int | None = None

    def __post_init__(self) -> None:
        row, layer = self.row, self.layer
        if (
            type(self.col) is int
            and (row is None or type(row) is int)
            and (layer is None or type(layer) is int)
        ):
            return  # the common case, checked cheaply: this runs for every move
        _check_coordinate("col", self.col, optional=False)
        _check_coordinate("row", self.row, optional=True)
        _check_coordinate("layer", self.layer, optional=True)


def parse_move(data: Mapping[str, Any]) -> MoveRequest:
    """A MoveRequest from ``{"row": r, "col": c, "layer": l}``; only ``col`` is required."""
    if type(data) is not dict and not isinstance(data, Mapping):  # a dict: no ABC check
        raise MalformedMove(f"a move must be an object with row and col, got {data!r}")
    if data.get("col") is None:
        raise MalformedMove(f"a move needs a col, got {dict(data)!r}")
    return MoveRequest(col=data["col"], row=data.get("row"), layer=data.get("layer"))
