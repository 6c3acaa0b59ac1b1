"""The solver's two implementations, for the test modules that prove values.

A module marked ``pytest.mark.usefixtures("search_implementation")`` runs each of its tests
twice: with the compiled searches (core/ai/_search.c, which must be built: ``pip install
-e .`` builds it) and with the pure-Python ones (``TICTACTOE_PURE=1``). Module-scoped, so
Hypothesis's examples share it and each module switches once a parameter.

A missing build fails every test that needs it, unless the run asks for the pure searches
alone (``TICTACTOE_PURE=1 pytest ...``, e.g. with the module removed): those tests are then
skipped and the pure searches face the same tests.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.ai.speedups import PURE_ENV
from tests.core.ai.implementations import require_compiled


@pytest.fixture(scope="module", params=["compiled", "pure"])
def search_implementation(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "compiled":
        require_compiled()
    with pytest.MonkeyPatch.context() as patch:
        if request.param == "pure":
            patch.setenv(PURE_ENV, "1")
        else:
            patch.delenv(PURE_ENV, raising=False)
        yield request.param
