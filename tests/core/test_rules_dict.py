"""``Rules.to_dict`` is built once per distinct rules, yet every caller gets its own dict:
changing one (as a caller building an answer might) never reaches the rules nor the next
caller's, and equal rules built apart give equal dicts."""

from __future__ import annotations

from core import Rules
from core import rules as rules_module


def test_each_call_gets_a_new_dict_that_a_caller_may_change() -> None:
    rules = Rules(rows=6, cols=7, k=4, gravity=True)
    first = rules.to_dict()
    first["k"] = 99
    first["extra"] = True
    del first["rows"]
    second = rules.to_dict()
    assert second is not first
    assert second == {
        "rows": 6,
        "cols": 7,
        "k": 4,
        "gravity": True,
        "misere": False,
        "players": 2,
        "layers": 1,
        "early_draw": False,
    }
    assert Rules.from_dict(second) == rules


def test_equal_rules_give_equal_dicts_and_different_rules_their_own() -> None:
    assert Rules(k=3).to_dict() == Rules().to_dict()  # k=0 is the board's full line: 3
    assert Rules(rows=4, cols=4).to_dict()["k"] == 4
    assert Rules(misere=True).to_dict()["misere"] is True
    assert Rules().to_dict()["misere"] is False


def test_the_kept_forms_are_bounded() -> None:
    rules_module._plain.cache_clear()
    for rows in range(3, 20):
        for cols in range(3, 20):
            Rules(rows=rows, cols=cols, k=3).to_dict()  # 289 distinct rules
    kept = rules_module._plain.cache_info()
    assert kept.maxsize is not None and 0 < kept.currsize <= kept.maxsize < 289
    assert Rules(rows=19, cols=19).to_dict()["rows"] == 19
