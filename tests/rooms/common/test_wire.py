"""rooms.common.wire: a wire value is a frozen, keyword-only dataclass whose JSON (orjson's,
and the standard library's fallback) is its fields in order, an optional field left out
while it is None."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import field
from typing import Any, Literal

import pytest

from rooms.common.jsontext import dumps
from rooms.common.wire import wire


@wire
class Sample:
    type: Literal["sample"] = field(default="sample", init=False)
    version: int
    note: str | None = None
    items: Sequence[int]
    flag: Literal[True] | None = None
    due: float | None


def test_the_json_is_the_fields_in_order_without_the_optional_ones_left_none() -> None:
    plain = Sample(version=1, items=[2, 3], due=None)
    assert dumps(plain) == '{"type":"sample","version":1,"items":[2,3],"due":null}'
    assert vars(plain) == {"type": "sample", "version": 1, "items": [2, 3], "due": None}
    assert plain.note is None and plain.flag is None  # read as the class default
    full = Sample(version=1, note="n", items=[], flag=True, due=2.5)
    assert dumps(full) == (
        '{"type":"sample","version":1,"note":"n","items":[],"flag":true,"due":2.5}'
    )


def test_the_standard_library_fallback_writes_the_same_text() -> None:
    odd = Sample(version=2**70, note="\ud800", items=[1], due=None)  # orjson refuses both
    assert dumps(odd) == json.dumps(
        {"type": "sample", "version": 2**70, "note": "\ud800", "items": [1], "due": None},
        separators=(",", ":"),
        ensure_ascii=False,
    )
    assert dumps([odd]) == f"[{dumps(odd)}]"


def test_a_wire_value_is_frozen() -> None:
    value = Sample(version=1, items=[], due=None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.version = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.note = "late"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del value.due
    assert vars(value) == {"type": "sample", "version": 1, "items": [], "due": None}


def test_it_compares_prints_and_is_replaced_as_a_dataclass() -> None:
    value = Sample(version=1, items=[4], due=None)
    assert value == Sample(version=1, items=[4], due=None)
    assert value != Sample(version=1, items=[4], flag=True, due=None)
    assert repr(value) == (
        "Sample(type='sample', version=1, note=None, items=[4], flag=None, due=None)"
    )
    later = dataclasses.replace(value, version=2, note="x")
    assert vars(later) == {"type": "sample", "version": 2, "note": "x", "items": [4], "due": None}
    assert [f.name for f in dataclasses.fields(Sample)] == [
        "type",
        "version",
        "note",
        "items",
        "flag",
        "due",
    ]


def test_arguments_are_keyword_only_and_required_unless_optional() -> None:
    with pytest.raises(TypeError):
        Sample(1, [], None)  # type: ignore[call-arg, arg-type]
    with pytest.raises(TypeError):
        Sample(version=1, due=None)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Sample(version=1, items=[], due=None, type="other")  # type: ignore[call-arg]


def _declare(annotations: dict[str, Any], namespace: dict[str, Any]) -> type:
    return wire(type("Bad", (), {"__annotations__": annotations, **namespace}))


@pytest.mark.parametrize(
    ("annotations", "namespace"),
    [
        ({"count": "int"}, {"count": 0}),  # a default other than None
        ({"items": "list[int]"}, {"items": field(default_factory=list)}),
        ({"kind": "str"}, {"kind": field(init=False)}),  # a constant without its value
        ({"_hidden": "int"}, {}),  # orjson would leave it out
    ],
)
def test_declarations_it_cannot_keep_to_are_refused(
    annotations: dict[str, Any], namespace: dict[str, Any]
) -> None:
    with pytest.raises(TypeError):
        _declare(annotations, namespace)
