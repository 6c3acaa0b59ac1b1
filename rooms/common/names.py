"""The one rule for a display name: a seat's (``join``, quick play) and a player identity's.

Surrounding spaces are trimmed; what is left is 1 to ``MAX_NAME`` characters without control,
format or separator-control characters (no line breaks, no invisible joiners, no lone
surrogates), so a name prints on one line wherever it is shown. The callers turn the
``ValueError`` into their own typed error (``bad_message`` on the socket, ``invalid_name``
over HTTP).
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_NAME", "clean_name"]

MAX_NAME = 32
_CONTROL = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def clean_name(value: object) -> str:
    """``value`` trimmed, when it is a valid name; else ValueError with a lowercase sentence
    that quotes it (``name must be 1 to 32 characters, got '...'``)."""
    if not isinstance(value, str):
        raise ValueError(f"name must be a string, got {value!r:.80}")
    name = value.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise ValueError(f"name must be 1 to {MAX_NAME} characters, got {value!r:.80}")
    if any(unicodedata.category(ch) in _CONTROL for ch in name):
        raise ValueError(f"name must not contain control characters, got {value!r:.80}")
    return name
