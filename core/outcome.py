"""How a game ended, as a value: ``Outcome(reason, winner, loser, line)``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import GameError
from .move import Move

__all__ = ["EndReason", "Outcome"]


class EndReason(StrEnum):
    LINE = "line"  # a line of k was completed (the winner, or under misère the loser)
    BOARD_FULL = "board_full"  # no empty cell left and no line
    NO_LINE_LEFT = "no_line_left"  # early draw: no line can be completed by anyone
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    ABANDONMENT = "abandonment"
    AGREEMENT = "agreement"
    ABORTED = "aborted"  # called off before it really started: no result


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game. ``winner`` and ``loser`` are marks or None (both None: no winner).

    ``line`` holds the cells of the completed line when ``reason`` is LINE.
    """

    reason: EndReason
    winner: str | None = None
    loser: str | None = None
    line: tuple[Move, ...] = ()

    @property
    def is_draw(self) -> bool:
        return self.winner is None and self.loser is None and self.reason != EndReason.ABORTED

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason.value,
            "winner": self.winner,
            "loser": self.loser,
            "line": [move.to_dict() for move in self.line],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        try:
            return cls(
                reason=EndReason(data["reason"]),
                winner=data.get("winner"),
                loser=data.get("loser"),
                line=tuple(
                    Move(int(m["row"]), int(m["col"]), int(m.get("layer", 0)))
                    for m in data.get("line", ())
                ),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise GameError(f"bad outcome record {data!r}: {exc}") from exc
