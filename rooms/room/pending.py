"""The offers pending in a room: a draw offer, a takeback request and the rematch votes.

Also what each seat has asked before; a plain value the room keeps and the codec stores.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

__all__ = ["Offers"]

T = TypeVar("T", int, float)


@dataclass(slots=True)
class Offers:
    draw: str | None = None
    draw_moves: dict[str, int] = field(default_factory=dict)
    """Per mark: how many moves it had made when it last offered a draw."""
    takeback: str | None = None
    takeback_declines: dict[str, int] = field(default_factory=dict)
    takeback_not_before: dict[str, float] = field(default_factory=dict)
    rematch: list[str] = field(default_factory=list)

    def view(self) -> dict[str, Any]:
        return {"draw": self.draw, "takeback": self.takeback, "rematch": list(self.rematch)}

    def on_move(self, mark: str) -> None:
        """A move landed: the mover's own draw offer lapses, any takeback request too."""
        if self.draw == mark:
            self.draw = None
        self.takeback = None

    def on_end(self) -> None:
        self.draw = None
        self.takeback = None

    def copy(self) -> Offers:
        """Independent offers in the same state (their dicts and list copied)."""
        return Offers(
            self.draw,
            self.draw_moves.copy(),
            self.takeback,
            self.takeback_declines.copy(),
            self.takeback_not_before.copy(),
            self.rematch.copy(),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "draw": self.draw,
            "draw_moves": dict(self.draw_moves),
            "takeback": self.takeback,
            "takeback_declines": dict(self.takeback_declines),
            "takeback_not_before": dict(self.takeback_not_before),
            "rematch": list(self.rematch),
        }

    def matches(self, data: Any) -> bool:
        """Whether ``from_dict(data)`` would build offers equal to these (False when not,
        or when it would refuse ``data``): a decode keeps the earlier state's offers then
        (rooms.protocol.codec; ``from_dict`` converts each value to the type held here)."""
        return (
            type(data) is dict
            and data.get("draw") == self.draw
            and data.get("takeback") == self.takeback
            and data.get("rematch", []) == self.rematch
            and data.get("draw_moves", {}) == self.draw_moves
            and data.get("takeback_declines", {}) == self.takeback_declines
            and data.get("takeback_not_before", {}) == self.takeback_not_before
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Offers:
        # positional, and a part copied whole when its types are already the ones built
        # (always, for a record this code wrote): every decode of a room builds its offers
        draw, takeback = data.get("draw"), data.get("takeback")
        return cls(
            str(draw) if draw is not None else None,
            _per_mark(data.get("draw_moves", {}), int),
            str(takeback) if takeback is not None else None,
            _per_mark(data.get("takeback_declines", {}), int),
            _per_mark(data.get("takeback_not_before", {}), float),
            _marks(data.get("rematch", [])),
        )


def _per_mark(data: Any, kind: type[T]) -> dict[str, T]:
    """``{str(k): kind(v) for k, v in data.items()}``: ``data`` copied as it is when its
    keys are strings and its values of exactly ``kind`` (a ``true`` is converted, as the
    comprehension converts it)."""
    items = data.items()
    if not data:
        return {}
    if set(map(type, data)) <= _STR and set(map(type, data.values())) == {kind}:
        return dict(data)
    return {str(k): kind(v) for k, v in items}


def _marks(data: Any) -> list[str]:
    """``[str(m) for m in data]``, copied as it is when it is a list of strings only."""
    if type(data) is list and set(map(type, data)) <= _STR:
        return data.copy()
    return [str(m) for m in data]


_STR = {str}
