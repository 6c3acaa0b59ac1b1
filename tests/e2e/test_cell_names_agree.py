"""The engine's messages and the browser name cells alike: core.cell_name (the server's
error messages) gives the same name as the page's cellName (the board's labels, the move
list, the live region) for every cell of a flat board, Gomoku's corner and a 3D cube."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core import Rules, cell_name

pytestmark = pytest.mark.e2e

BOARDS = [Rules(), Rules(rows=6, cols=7, k=4, gravity=True), Rules(rows=4, cols=4, layers=4, k=4)]


def test_the_engine_names_every_cell_as_the_page_does(js: Any) -> None:
    cells = [
        (rules.to_dict(), row, col, layer)
        for rules in [*BOARDS, Rules(rows=19, cols=19, k=5)]
        for layer in range(rules.layers)
        for row in range(rules.rows)
        for col in range(rules.cols)
    ]
    page_names = js(
        f"const cells = {json.dumps(cells)};"
        "return cells.map(([rules, row, col, layer]) =>"
        " m.rules.cellName({row, col, layer}, rules));"
    )
    engine_names = [cell_name(Rules.from_dict(r), row, col, layer) for r, row, col, layer in cells]
    assert page_names == engine_names
    assert "s19" in engine_names and "L4 d4" in engine_names
