"""What completing a line means: a win (normal) or a loss (misère). Found by name."""

from __future__ import annotations

from typing import ClassVar, Protocol

from .move import Move
from .outcome import EndReason, Outcome
from .rules import MARKS, Rules

__all__ = ["SCORINGS", "MisereScoring", "NormalScoring", "Scoring", "make_scoring"]


class Scoring(Protocol):
    name: ClassVar[str]

    def line_completed(self, code: int, line: tuple[Move, ...]) -> Outcome: ...


class NormalScoring:
    name: ClassVar[str] = "normal"

    def __init__(self, rules: Rules) -> None:
        self._players = rules.players

    def line_completed(self, code: int, line: tuple[Move, ...]) -> Outcome:
        return Outcome(EndReason.LINE, winner=MARKS[code - 1], line=line)


class MisereScoring:
    """Whoever completes a line loses; with two players the other one wins."""

    name: ClassVar[str] = "misere"

    def __init__(self, rules: Rules) -> None:
        self._players = rules.players

    def line_completed(self, code: int, line: tuple[Move, ...]) -> Outcome:
        winner = MARKS[2 - code] if self._players == 2 else None
        return Outcome(EndReason.LINE, winner=winner, loser=MARKS[code - 1], line=line)


SCORINGS: dict[str, type[NormalScoring] | type[MisereScoring]] = {
    NormalScoring.name: NormalScoring,
    MisereScoring.name: MisereScoring,
}


def make_scoring(rules: Rules) -> Scoring:
    return SCORINGS["misere" if rules.misere else "normal"](rules)
