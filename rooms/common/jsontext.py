"""Compact JSON text in and out, fast: orjson, with the standard library as the fallback.

Every frame a client receives, every stored room and every bus message goes through here, so
encoding is on the hot path, and orjson (a C extension) does it several times faster than the
``json`` module. The text is the same compact JSON (``separators=(",", ":")``, UTF-8, not
ASCII-escaped); what orjson refuses (a lone surrogate, an integer beyond 64 bits, a non-standard
value) falls back to the standard library, so every value that ``json`` can handle still encodes
and decodes. (The room's events are msgspec structs, encoded by rooms.protocol.messages.)
"""

from __future__ import annotations

import json
from typing import Any

import orjson

__all__ = ["dumps", "loads"]

_NON_STR_KEYS = orjson.OPT_NON_STR_KEYS  # as json.dumps: int keys become strings


def dumps(value: Any) -> str:
    # Without the option first: allowing keys that are not strings sends every dict down
    # orjson's slower path, and every key the server writes is a string; a value with
    # another key is refused (TypeError) and encoded again with the option, so the text is
    # the same either way.
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        pass
    try:
        return orjson.dumps(value, option=_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | bytes) -> Any:
    """Raises ValueError (JSONDecodeError) when the text is not JSON."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
