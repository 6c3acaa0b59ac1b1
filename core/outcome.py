"""How a game ended, as a value: ``Outcome(reason, winner, loser, line)``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import GameError
from .move import Move

__all__ = ["EndReason", "Outcome", "ended_because"]


class EndReason(StrEnum):
    LINE = "line"  # a line of k was completed (the winner, or under misère the loser)
    BOARD_FULL = "board_full"  # no empty cell left and no line
    NO_LINE_LEFT = "no_line_left"  # early draw: no line can be completed by anyone
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    ABANDONMENT = "abandonment"
    AGREEMENT = "agreement"
    ABORTED = "aborted"  # called off before it really started: no result


_BECAUSE = {
    EndReason.LINE: "a line was completed",
    EndReason.BOARD_FULL: "the board is full",
    EndReason.NO_LINE_LEFT: "no line can be completed any more",
    EndReason.RESIGNATION: "a player resigned",
    EndReason.TIMEOUT: "a clock ran out",
    EndReason.ABANDONMENT: "a player left",
    EndReason.ABORTED: "it was aborted",
    EndReason.AGREEMENT: "the players agreed",
}


def ended_because(reason: EndReason) -> str:
    """Why a game ended, in plain words for messages: ``the board is full``."""
    return _BECAUSE[reason]


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
