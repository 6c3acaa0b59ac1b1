"""The solver's implementation, for the test modules that prove values.

A module marked ``pytest.mark.usefixtures("search_implementation")`` runs its tests on the
compiled searches (core/ai/_search.c, which must be built: ``pip install -e .`` builds it),
or on the pure-Python ones when the run asks for them (``TICTACTOE_PURE=1 pytest ...``).
Module-scoped, so Hypothesis's examples share it.

Not both on every test: the two are held to each other by test_ai_speedups.py (the same
trees, values, distances, nodes and table entries on every kind of rules they hold, and on
any rules Hypothesis draws), and the pure search also faces brute force itself on every
reachable position of a few rule sets (test_ai_solver.py's sweep asks for ``BOTH``, from
implementations.py): a value wrong in the pure search alone fails one of those.

A missing build fails every test that needs it, unless the run asks for the pure searches
alone (``TICTACTOE_PURE=1 pytest ...``, e.g. with the module removed): the compiled cases
are then skipped and the pure searches face every other test.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from core.ai.speedups import PURE_ENV
from tests.core.ai.implementations import require_compiled


def _asked() -> list[str]:
    """The pure searches when the run asks for them, else the compiled ones."""
    return ["pure"] if os.environ.get(PURE_ENV, "") not in ("", "0") else ["compiled"]


@pytest.fixture(scope="module", params=_asked())
def search_implementation(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "compiled":
        require_compiled()
    with pytest.MonkeyPatch.context() as patch:
        if request.param == "pure":
            patch.setenv(PURE_ENV, "1")
        else:
            patch.delenv(PURE_ENV, raising=False)
        yield request.param
