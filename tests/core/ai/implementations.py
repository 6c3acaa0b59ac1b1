"""Which of the solver's implementations a test may count on (core/ai/speedups.py)."""

from __future__ import annotations

import os

import pytest

from core.ai.speedups import PURE_ENV, compiled_built

__all__ = ["BOTH", "require_compiled"]

BOTH = ["compiled", "pure"]
"""Both implementations for one test that asks for them on top of its module's (conftest.py):
``@pytest.mark.parametrize("search_implementation", BOTH, indirect=True)``."""


def require_compiled() -> None:
    """Fail without the build of core/ai/_search.c; skip instead when the run asked for the
    pure searches alone (``TICTACTOE_PURE=1 pytest ...``, e.g. with the module removed), so
    that the pure searches face the same tests."""
    if compiled_built():
        return
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        pytest.skip(f"{PURE_ENV} is set and core/ai/_search.c is not built: pure searches only")
    pytest.fail(
        f"core/ai/_search.c is not built: pip install -e . ({PURE_ENV}=1 tests the pure alone)"
    )
