"""The solver's two implementations, for the test modules that prove values.

A module marked ``pytest.mark.usefixtures("search_implementation")`` runs each of its tests
twice: with the compiled value search (core/ai/_search.c, which must be built: ``pip
install -e .`` builds it) and with the pure-Python one (``TICTACTOE_PURE=1``). Module-scoped,
so Hypothesis's examples share it and each module switches once a parameter.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.ai.speedups import PURE_ENV, compiled_available


@pytest.fixture(scope="module", params=["compiled", "pure"])
def search_implementation(request: pytest.FixtureRequest) -> Iterator[str]:
    with pytest.MonkeyPatch.context() as patch:
        if request.param == "pure":
            patch.setenv(PURE_ENV, "1")
        else:
            patch.delenv(PURE_ENV, raising=False)
            assert compiled_available(), "core/ai/_search.c is not built: pip install -e ."
        yield request.param
