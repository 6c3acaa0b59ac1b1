"""rooms.common.jsontext writes the text the standard library writes (compact, not ASCII-escaped)
whichever of its paths a value takes: orjson as it is, orjson allowing keys that are not
strings, or the standard library for what orjson refuses; and reads it back."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rooms.common.jsontext import dumps, loads


def _standard(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize(
    "value",
    [
        {"type": "moved", "row": 1, "col": 2, "due": None, "players": [{"mark": "X"}]},
        {"name": "Zoë 🎲", "quote": 'a "b" \\ c', "tab": "\t"},
        {"floats": [0.5, 1796093959.4195235, 30.0, -2.25]},
        {1: "one", "two": {3: [4, {5: None}]}},  # int keys: orjson with OPT_NON_STR_KEYS
        {"deep": {"inner": {7: True, 8: False}}},
        {"surrogate": "\ud800"},  # a lone surrogate: orjson refuses it, json does not
        {"big": 2**70, "small": -(2**70)},  # beyond 64 bits: json
        [],
        "text",
    ],
)
def test_dumps_writes_what_the_standard_library_writes(value: Any) -> None:
    text = dumps(value)
    assert text == _standard(value)
    assert loads(text) == json.loads(text)


def test_small_floats_read_back_as_they_were() -> None:
    # orjson writes 1e-7 where json writes 1e-07: another text, the same number
    value = {"t": [1e-07, 2.5e-300, 123456789.125]}
    assert loads(dumps(value)) == value


def test_loads_refuses_what_is_not_json_with_a_value_error() -> None:
    with pytest.raises(ValueError):
        loads("{not json")
