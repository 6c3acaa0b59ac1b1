"""The checks a setting's value passes when the Settings are built (server.settings).

Each takes the Settings being built and a field's name, raises a SettingsError naming the field
when the value cannot be used, and may put a normalised value back (stripped text, a lower-case
word) on the frozen instance, as only its ``__post_init__`` may.
"""

from __future__ import annotations

import math

from .errors import SettingsError

__all__ = [
    "non_negative_number",
    "one_of",
    "positive_int",
    "positive_number",
    "stripped_text",
    "true_or_false",
]


def positive_int(settings: object, name: str, *, high: int | None = None, low: int = 1) -> None:
    value = getattr(settings, name)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise SettingsError(name, f"must be a whole number of {low} or more, got {value!r}")
    if high is not None and value > high:
        raise SettingsError(name, f"must be at most {high}, got {value!r}")


def positive_number(settings: object, name: str) -> None:
    value = getattr(settings, name)
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not (math.isfinite(value) and value > 0)
    ):
        raise SettingsError(name, f"must be a number above 0, got {value!r}")


def non_negative_number(settings: object, name: str) -> None:
    value = getattr(settings, name)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
        raise SettingsError(name, f"must be a number of 0 or more, got {value!r}")


def true_or_false(settings: object, name: str) -> None:
    if not isinstance(getattr(settings, name), bool):
        raise SettingsError(name, f"must be True or False, got {getattr(settings, name)!r}")


def one_of(settings: object, name: str, allowed: tuple[str, ...]) -> None:
    value = getattr(settings, name)
    if isinstance(value, str) and value.strip().lower() in allowed:
        object.__setattr__(settings, name, value.strip().lower())  # DEBUG, Json: accepted
        return
    if value not in allowed:
        raise SettingsError(name, f"must be one of {', '.join(allowed)}, got {value!r}")


def stripped_text(settings: object, name: str) -> None:
    value = getattr(settings, name)
    if not isinstance(value, str):
        raise SettingsError(name, f"must be text, got {value!r}")
    object.__setattr__(settings, name, value.strip())
