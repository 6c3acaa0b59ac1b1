"""Rules: validated on construction with errors naming the field, plain-dict form, geometry."""

from __future__ import annotations

import dataclasses
from itertools import product
from typing import Any

import pytest

from core import EndReason, Game, Rules, RulesError
from core.rules import MAX_LAYERS, MAX_SIDE


def test_defaults_are_classic_tic_tac_toe() -> None:
    rules = Rules()
    assert (rules.rows, rules.cols, rules.layers, rules.k) == (3, 3, 1, 3)
    assert (rules.gravity, rules.misere, rules.early_draw, rules.players) == (
        False,
        False,
        False,
        2,
    )
    assert rules.marks == ("X", "O")
    assert rules.cells == 9
    assert not rules.is_3d


@pytest.mark.parametrize(
    ("shape", "expected_k"),
    [
        ({"rows": 3, "cols": 5}, 3),
        ({"rows": 1, "cols": 4, "layers": 4}, 4),  # sides of one cell do not count
        ({"rows": 6, "cols": 7}, 6),
        ({"rows": 4, "cols": 4, "layers": 4}, 4),
        ({"rows": 4, "cols": 4, "layers": 2}, 2),
        ({"rows": 1, "cols": 1}, 1),
    ],
)
def test_k_zero_means_the_shortest_real_side(shape: dict[str, Any], expected_k: int) -> None:
    assert Rules(**shape).k == expected_k


BAD_FIELDS: list[tuple[str, Any]] = [
    ("rows", 0),
    ("rows", 20),
    ("rows", -3),
    ("rows", "3"),
    ("rows", 3.0),
    ("rows", True),
    ("cols", 0),
    ("cols", 20),
    ("cols", None),
    ("cols", False),
    ("k", -1),
    ("k", 20),
    ("k", "3"),
    ("k", 2.5),
    ("k", False),
    ("k", 0.0),
    ("players", 1),
    ("players", 5),
    ("players", True),
    ("players", "2"),
    ("layers", 0),
    ("layers", MAX_LAYERS + 1),
    ("layers", 1.5),
    ("gravity", 1),
    ("gravity", "yes"),
    ("gravity", None),
    ("misere", 0),
    ("misere", "false"),
    ("early_draw", 1),
    ("early_draw", "true"),
]


@pytest.mark.parametrize(("field", "value"), BAD_FIELDS, ids=[f"{f}={v!r}" for f, v in BAD_FIELDS])
def test_bad_field_is_refused_naming_the_field(field: str, value: Any) -> None:
    with pytest.raises(RulesError) as caught:
        Rules(**{field: value})
    err = caught.value
    assert err.field == field
    assert err.code == "invalid_rules"
    assert str(err).startswith(f"{field}: ")
    assert repr(value) in str(err) or str(value) in str(err)


def test_limits_are_inclusive() -> None:
    assert Rules(rows=MAX_SIDE, cols=MAX_SIDE, k=5).cells == 361
    assert Rules(rows=1, cols=2, k=1).k == 1
    assert Rules(rows=4, cols=4, players=4, k=3).marks == ("X", "O", "A", "B")
    assert Rules(rows=2, cols=2, layers=MAX_LAYERS, k=2).layers == MAX_LAYERS


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rows": 3, "cols": 3, "k": 4},  # longer than any line
        {"rows": 2, "cols": 5, "k": 6},
        {"rows": 3, "cols": 3, "layers": 2, "k": 4},  # 3D: longest line is 3
        {"rows": 1, "cols": 3, "k": 3},  # X places only 2 marks
        {"rows": 2, "cols": 2, "players": 4},  # k=2 but everyone places 1 mark
        {"rows": 3, "cols": 3, "players": 4, "k": 4},
    ],
)
def test_rules_where_nobody_can_complete_a_line_are_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as caught:
        Rules(**kwargs)
    assert caught.value.field == "k"


def _small_rule_sets() -> list[tuple[dict[str, Any], Rules | None]]:
    """Every board of up to 10 cells, k, player count and gravity setting: kwargs and Rules."""
    found: list[tuple[dict[str, Any], Rules | None]] = []
    for rows, cols, layers, players, gravity in product(
        range(1, 5), range(1, 5), (1, 2, 3), range(2, 5), (False, True)
    ):
        if rows * cols * layers > 10:
            continue
        for k in range(1, max(rows, cols, layers) + 2):
            kwargs: dict[str, Any] = {
                "rows": rows,
                "cols": cols,
                "layers": layers,
                "k": k,
                "players": players,
                "gravity": gravity,
            }
            try:
                found.append((kwargs, Rules(**kwargs)))
            except RulesError:
                found.append((kwargs, None))
    return found


def _some_game_completes_a_line(game: Game, known: dict[bytes, bool]) -> bool:
    """Depth-first over positions (memoised): can some sequence of legal moves make a line?"""
    if game.outcome is not None:
        return game.outcome.reason == EndReason.LINE
    key = bytes(game.board.cells)
    if key not in known:
        known[key] = False
        for index in game.legal_indices():
            game.play_index(index)
            known[key] = _some_game_completes_a_line(game, known)
            game.undo()
            if known[key]:
                break
    return known[key]


def test_accepted_rules_can_be_won_and_refused_ones_cannot() -> None:
    """The refusal is exact on every small board: never too strict, never too lax."""
    accepted = 0
    for kwargs, rules in _small_rule_sets():
        if rules is not None:
            accepted += 1
            assert _some_game_completes_a_line(Game(rules), {}), kwargs
        else:
            # refused: no straight run of k cells, nobody ever holds k marks, or gravity
            # with a single stack (2D: one column, 3D: one pillar) where marks alternate
            rows, cols, layers, k = kwargs["rows"], kwargs["cols"], kwargs["layers"], kwargs["k"]
            share = -(-(rows * cols * layers) // kwargs["players"])
            stacks = rows * cols if layers > 1 else cols
            one_stack = kwargs["gravity"] and stacks == 1 and k > 1
            assert k > max(rows, cols, layers) or k > share or one_stack, kwargs
    assert accepted > 200


def test_gravity_with_a_single_stack_is_refused() -> None:
    shapes: list[dict[str, Any]] = [
        {"rows": 5, "cols": 1, "k": 2},
        {"rows": 1, "cols": 1, "layers": 4, "k": 2},
    ]
    for kwargs in shapes:
        with pytest.raises(RulesError) as caught:
            Rules(gravity=True, **kwargs)
        assert caught.value.field == "k"
        assert "single" in str(caught.value)
    assert Rules(rows=5, cols=1, k=2).k == 2  # without gravity a column is an ordinary line
    assert Rules(rows=5, cols=1, k=1, gravity=True).k == 1


def test_rules_are_an_immutable_hashable_value() -> None:
    rules = Rules(rows=6, cols=7, k=4, gravity=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.rows = 5  # type: ignore[misc]
    assert rules == Rules(rows=6, cols=7, k=4, gravity=True)
    assert len({rules, Rules(rows=6, cols=7, k=4, gravity=True), Rules()}) == 2


def test_to_dict_and_from_dict_round_trip() -> None:
    rules = Rules(rows=4, cols=5, k=3, misere=True, players=3, early_draw=True)
    data = rules.to_dict()
    assert data == {
        "rows": 4,
        "cols": 5,
        "k": 3,
        "gravity": False,
        "misere": True,
        "players": 3,
        "layers": 1,
        "early_draw": True,
    }
    assert Rules.from_dict(data) == rules
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"rows": 6, "cols": 7, "k": 4, "gravity": True}).gravity


@pytest.mark.parametrize("key", ["size", "K", "win_length", 3])
def test_from_dict_refuses_unknown_keys(key: Any) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_dict({key: 3})
    assert caught.value.field == str(key)
    assert "is not a rule" in str(caught.value)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"rows": "3"}, "rows"),
        ({"k": None}, "k"),
        ({"gravity": "true"}, "gravity"),
        ({"players": 2.0}, "players"),
        ({"layers": [4]}, "layers"),
        ({"early_draw": 0}, "early_draw"),
    ],
)
def test_from_dict_refuses_wrong_types(data: dict[str, Any], field: str) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_dict(data)
    assert caught.value.field == field


@pytest.mark.parametrize("data", [None, [], "3x3", 3])
def test_from_dict_refuses_non_objects(data: Any) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_dict(data)
    assert caught.value.field == "rules"


def test_index_and_coords_are_inverse() -> None:
    rules = Rules(rows=3, cols=4, layers=2, k=2)
    indices = [rules.index(r, c, layer) for layer in range(2) for r in range(3) for c in range(4)]
    assert indices == list(range(rules.cells))
    assert all(rules.index(*rules.coords(i)) == i for i in indices)
    assert rules.coords(rules.index(2, 1, 1)) == (2, 1, 1)


@pytest.mark.parametrize(
    ("rules", "label"),
    [
        (Rules(), "3×3 k=3"),
        (Rules(rows=6, cols=7, k=4, gravity=True), "6×7 k=4 gravity"),
        (Rules(rows=4, cols=4, layers=4), "4×4×4 k=4"),
        (Rules(misere=True, players=3), "3×3 k=3 misere 3 players"),
        (Rules(rows=5, cols=5, k=4, early_draw=True), "5×5 k=4 early draw"),
    ],
)
def test_describe(rules: Rules, label: str) -> None:
    assert rules.describe() == label
