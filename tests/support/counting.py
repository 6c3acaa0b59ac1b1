"""Count the calls a module makes to one of its names (``loads``, say) during a test."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

__all__ = ["Counted", "count_calls"]


class Counted:
    """How many times the wrapped function was called so far (``calls``)."""

    def __init__(self) -> None:
        self.calls = 0


def count_calls(monkeypatch: pytest.MonkeyPatch, module: ModuleType, name: str) -> Counted:
    """Wrap ``module.name`` for the rest of the test; the wrapper still calls the real one."""
    counted = Counted()
    real = getattr(module, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        counted.calls += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return counted
