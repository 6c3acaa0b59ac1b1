"""Outcome: the end of a game as a value, with a plain-dict form that round-trips."""

from __future__ import annotations

from typing import Any

import pytest

from core import EndReason, GameError, Move, Outcome


def test_every_reason_has_a_stable_wire_name() -> None:
    assert [reason.value for reason in EndReason] == [
        "line",
        "board_full",
        "no_line_left",
        "resignation",
        "timeout",
        "abandonment",
        "agreement",
        "aborted",
    ]
    assert EndReason("line") is EndReason.LINE


@pytest.mark.parametrize(
    ("outcome", "is_draw"),
    [
        (Outcome(EndReason.LINE, winner="X", line=(Move(0, 0), Move(0, 1), Move(0, 2))), False),
        (Outcome(EndReason.LINE, winner="O", loser="X"), False),  # misère
        (Outcome(EndReason.LINE, loser="A"), False),  # misère, 3 players
        (Outcome(EndReason.BOARD_FULL), True),
        (Outcome(EndReason.NO_LINE_LEFT), True),
        (Outcome(EndReason.AGREEMENT), True),
        (Outcome(EndReason.ABANDONMENT), True),
        (Outcome(EndReason.RESIGNATION, winner="O", loser="X"), False),
        (Outcome(EndReason.ABORTED), False),  # no result at all
    ],
)
def test_is_draw_and_round_trip(outcome: Outcome, is_draw: bool) -> None:
    assert outcome.is_draw is is_draw
    assert Outcome.from_dict(outcome.to_dict()) == outcome


def test_to_dict_shape() -> None:
    outcome = Outcome(EndReason.LINE, winner="X", line=(Move(0, 0, 1), Move(1, 1, 1)))
    assert outcome.to_dict() == {
        "reason": "line",
        "winner": "X",
        "loser": None,
        "line": [{"row": 0, "col": 0, "layer": 1}, {"row": 1, "col": 1, "layer": 1}],
    }


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"reason": "checkmate"},
        {"reason": "line", "line": [{"col": 1}]},
        {"reason": "line", "line": [{"row": "a", "col": 1}]},
        {"reason": "line", "line": 5},
        ["line"],
    ],
)
def test_bad_records_are_refused(data: Any) -> None:
    with pytest.raises(GameError):
        Outcome.from_dict(data)
