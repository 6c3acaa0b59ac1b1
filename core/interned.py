"""Immutable values built once per distinct plain-data form (what stored records hold).

A worker decodes the same few rules and room settings over and over (every stored room
carries its own copy); building the value each time costs more than looking it up. The
key holds each value's type, so ``true`` never passes for ``1`` nor ``3.0`` for ``3``, and
nested dicts are keyed the same way. Only values that were built are kept (a refusal is
raised again on every call), and the cache is bounded: past ``limit`` it starts over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["BuiltOnce", "typed_key"]

T = TypeVar("T")


def typed_key(data: Any) -> tuple[Any, ...]:
    """A key for a dict of plain values that tells ``1`` from ``1.0`` and ``true``: its names,
    its values' types and its values, a nested dict keyed the same way (AttributeError when
    ``data`` is not a mapping; hashing the key raises TypeError when a value is unhashable, a
    mapping of another class than ``dict`` included).

    Equal keys mean the same names in the same order, with values of the same types that compare
    equal. Built as three tuples by C loops rather than a tuple per item: every room decode
    looks up two of these (rules and settings)."""
    values = tuple(data.values())
    types = tuple(map(type, values))
    if dict in types:  # rare (settings with a time control): only then key them one by one
        values = tuple([typed_key(v) if type(v) is dict else v for v in values])
    return (tuple(data), types, values)


class BuiltOnce(Generic[T]):
    """``build(data)``, remembered per distinct ``data`` (see the module)."""

    def __init__(self, build: Callable[[Any], T], *, limit: int = 256) -> None:
        self._build = build
        self._limit = limit
        self._built: dict[tuple[Any, ...], T] = {}

    def __call__(self, data: Any) -> T:
        try:
            key = typed_key(data)
            found = self._built.get(key)
        except (AttributeError, TypeError):  # not a mapping, or unhashable: no caching
            return self._build(data)
        if found is None:
            found = self._build(data)
            if len(self._built) >= self._limit:
                self._built.clear()
            self._built[key] = found
        return found

    def __len__(self) -> int:
        return len(self._built)
