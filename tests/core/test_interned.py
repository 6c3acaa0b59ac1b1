"""core.interned: values built once per distinct plain-data form, typed keys."""

from __future__ import annotations

from typing import Any

import pytest

from core import BuiltOnce, GameError, Rules, typed_key


def counting(build: Any) -> tuple[BuiltOnce[Any], list[Any]]:
    calls: list[Any] = []

    def recorded(data: Any) -> Any:
        calls.append(data)
        return build(data)

    return BuiltOnce(recorded, limit=3), calls


def test_equal_data_builds_once_and_gives_the_same_value() -> None:
    rules_of, calls = counting(Rules.from_dict)
    first = rules_of({"rows": 4, "cols": 4, "k": 3})
    again = rules_of({"rows": 4, "cols": 4, "k": 3})
    assert first is again and first == Rules(rows=4, cols=4, k=3) and len(calls) == 1


def test_values_of_other_types_are_other_keys() -> None:
    assert typed_key({"a": 1}) != typed_key({"a": 1.0}) != typed_key({"a": True})
    assert typed_key({"a": {"b": 1}}) != typed_key({"a": {"b": True}})  # nested dicts too
    built, calls = counting(dict)
    for data in ({"a": 1}, {"a": 1.0}, {"a": True}):
        assert built(data) == data and type(built(data)["a"]) is type(data["a"])
    assert len(calls) == 3


def test_a_refusal_is_raised_every_time_and_never_kept() -> None:
    rules_of, calls = counting(Rules.from_dict)
    for _ in range(2):
        with pytest.raises(GameError):
            rules_of({"rows": 0})
    assert len(calls) == 2 and len(rules_of) == 0


def test_what_cannot_be_a_key_is_built_every_time() -> None:
    built, calls = counting(len)
    assert built({"a": [1, 2]}) == 1 and built({"a": [1, 2]}) == 1  # a list: unhashable
    assert built("not a mapping") == 13
    assert len(calls) == 3 and len(built) == 0


def test_the_cache_is_bounded() -> None:
    built, calls = counting(dict)
    for n in range(10):
        built({"n": n})
    assert len(built) <= 3 and len(calls) == 10


def test_keys_tell_names_types_and_nesting_apart() -> None:
    assert typed_key({"a": 1, "b": 2}) == typed_key({"a": 1, "b": 2})
    assert typed_key({"a": 1}) != typed_key({"b": 1})
    assert typed_key({"a": 0}) != typed_key({"a": False}) != typed_key({"a": None})
    assert typed_key({"a": {"b": 1.0}}) != typed_key({"a": {"b": 1}})
    assert typed_key({"a": {"b": 1}, "c": 2}) == typed_key({"a": {"b": 1}, "c": 2})
    built, calls = counting(len)
    for data in ({"t": {"i": 60, "j": 1}}, {"t": {"i": 60, "j": True}}, {"t": None}):
        assert built(data) == 1 and built(data) == 1
    assert len(calls) == 3 and len(built) == 3  # nested dicts are cached, each its own


def test_a_dict_of_another_class_inside_is_built_every_time() -> None:
    from collections import OrderedDict

    built, calls = counting(len)
    data = {"a": OrderedDict(b=1)}
    assert built(data) == 1 and built(data) == 1
    assert len(calls) == 2 and len(built) == 0
