"""Endings decided off the board, by name: resignation, timeout, abandonment, agreement, abort.

The room calls these on its ``Game`` (``game.resign("X")``); each only builds the
``Outcome`` and hands it to ``Game.finish``, which checks and records it.
"""

from __future__ import annotations

from .errors import GameError
from .outcome import EndReason, Outcome
from .rules import Rules

__all__ = ["OffBoardEndings"]


class OffBoardEndings:
    """Mixed into ``Game``, which provides ``rules`` and ``finish``."""

    rules: Rules

    def finish(self, outcome: Outcome) -> Outcome:
        raise NotImplementedError

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
