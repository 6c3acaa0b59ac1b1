"""Wire values: frozen dataclasses whose instance dict is their JSON object, built once.

A class decorated with ``@wire`` is declared like a dataclass (keyword-only arguments) and is
frozen, to mypy and at run time. orjson encodes it natively (rooms.common.jsontext), the fields
in the order they are declared. It differs from ``@dataclass(frozen=True, kw_only=True)`` in two
ways, both for the events sent on every change (rooms.room.events):

- ``__init__`` fills the instance dict in one step. A frozen dataclass sets each field through
  ``object.__setattr__``, which for an event of 14 fields, on every move, costs several times
  the building of the same dict (docs/performance.md, "Events as wire values").
- A field declared ``= None`` is *optional*: while it is None it is left out of the instance
  dict, and so out of the JSON (reading it gives the class default, None). This is how a key
  the protocol sends only sometimes ("absent otherwise") stays absent.

A field declared with ``field(default=..., init=False)`` is a constant, always sent (an event's
``type``). No other defaults. orjson encodes a dataclass without ``__slots__`` from its instance
dict, and rooms.common.jsontext's standard-library fallback does the same
(tests/rooms/common/test_wire.py holds both).
"""

from __future__ import annotations

import keyword
from collections.abc import Callable
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any, TypeVar, dataclass_transform

__all__ = ["wire"]

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
def wire(cls: type[_T]) -> type[_T]:
    """``cls`` as a wire value (see the module's docstring)."""
    cls = dataclass(frozen=True, kw_only=True, init=False)(cls)
    type.__setattr__(cls, "__init__", _init_of(cls))
    return cls


def _init_of(cls: type) -> Callable[..., None]:
    """The ``__init__`` of ``cls``: its arguments, keyword-only, in field order, put in one
    dict in that order (each optional one only when not None), which becomes the instance's.
    Generated from the fields, as dataclasses generate theirs; the fields up to the first
    optional one are written as one dict display, the fastest way to build a dict."""
    params: list[str] = []
    leading: list[str] = []  # the entries of the dict display
    lines: list[str] = []  # what follows it
    constants: dict[str, Any] = {"_set": object.__setattr__}
    for spec in fields(cls):
        name = spec.name
        if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_"):
            raise TypeError(f"{cls.__name__}.{name}: a wire value's fields are plain names")
        if not spec.init:
            constants[f"_const_{name}"] = _constant(cls, spec)
            value = f"_const_{name}"
        elif spec.default is MISSING and spec.default_factory is MISSING:
            params.append(name)
            value = name
        elif spec.default is None:
            params.append(f"{name}=None")
            lines.append(f"if {name} is not None: _values[{name!r}] = {name}")
            continue
        else:
            raise TypeError(f"{cls.__name__}.{name}: a wire value's only default is None")
        if lines:
            lines.append(f"_values[{name!r}] = {value}")
        else:
            leading.append(f"{name!r}: {value}")
    # the locals start with an underscore, which no field's name does
    signature = f"_self, *, {', '.join(params)}" if params else "_self"
    display = f"_values = {{{', '.join(leading)}}}"
    body = "\n    ".join([display, *lines, "_set(_self, '__dict__', _values)"])
    source = f"def __init__({signature}):\n    {body}\n"
    exec(source, constants)  # the source is made of the field names alone
    init: Callable[..., None] = constants["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _constant(cls: type, spec: Field[Any]) -> Any:
    if spec.default is MISSING:
        raise TypeError(f"{cls.__name__}.{spec.name}: a field outside __init__ needs a default")
    return spec.default
