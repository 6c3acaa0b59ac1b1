"""rooms.backends.redis.resp packs the very bytes redis-py's ``pack_commands`` sends, and refuses
what it refuses."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from redis.asyncio.connection import Connection
from redis.exceptions import DataError

from rooms.backends.redis.resp import pack_commands

_ARG = st.one_of(
    st.text(),
    st.binary(),
    st.integers(),
    st.floats(),
    st.text(alphabet=" \t\nab", max_size=6),
)
_NAME = st.one_of(
    st.sampled_from(["EVALSHA", "SCRIPT LOAD", "GET", "  PING ", "CONFIG\tGET"]),
    st.sampled_from([b"EVALSHA", b"SCRIPT LOAD", b"x y z"]),
    st.text(min_size=1).filter(lambda t: t.split() != []),
)
_COMMAND = st.tuples(_NAME, st.lists(_ARG, max_size=8)).map(lambda c: (c[0], *c[1]))


def _redis_py(commands: list[tuple[Any, ...]], **encoding: Any) -> bytes:
    return b"".join(bytes(part) for part in Connection(**encoding).pack_commands(commands))


@given(st.lists(_COMMAND, min_size=1, max_size=5))
def test_the_bytes_are_redis_py_s(commands: list[tuple[Any, ...]]) -> None:
    assert pack_commands(commands) == _redis_py(commands)


def test_large_values_memoryviews_and_subclasses_pack_alike() -> None:
    class Name(str):
        pass

    class Count(int):
        pass

    big = "é" * 50_000  # over redis-py's chunking cutoff: it sends the value apart
    commands: list[tuple[Any, ...]] = [
        ("SET", "k", big),
        ("EVALSHA", b"abc", 2, "k1", "k2", 1.5, -7, float("inf")),
        ("SET", Name("n"), Count(3)),
        ("SET", "m", memoryview(b"view")),
        ("SET", "b", bytearray(b"arr")),
    ]
    assert pack_commands(commands) == _redis_py(commands)
    assert pack_commands([("SET", "k", "é")], "latin-1") == _redis_py(
        [("SET", "k", "é")], encoding="latin-1"
    )


@pytest.mark.parametrize("value", [True, None, [1], {"a": 1}, object()])
def test_what_redis_py_refuses_is_refused_alike(value: object) -> None:
    with pytest.raises(DataError) as ours:
        pack_commands([("SET", "k", value)])  # type: ignore[list-item]
    with pytest.raises(DataError) as theirs:
        _redis_py([("SET", "k", value)])
    assert str(ours.value) == str(theirs.value)
