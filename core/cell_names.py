"""Cells named as the browser's board labels them, for the engine's messages to people.

Columns are letters from the left (``a``, ``b``, ...), rows are numbers from the top starting
at 1, and a 3D board puts the layer first, counted from the bottom: ``b3``, ``L2 b3``. This
is what the board's edge labels, the move list and the live region say (static/js/model/rules.js
``cellName``); the wire keeps 0-based ``row``/``col``/``layer``, which the messages add in
brackets so a program (or the terminal, whose labels are 0-based) can match them.
"""

from __future__ import annotations

from .rules import Rules

__all__ = ["cell_name", "column_name", "named_cell", "pillar_name"]


def column_name(col: int) -> str:
    """``a`` for col 0, up to ``s`` for col 18 (boards have at most 19 columns)."""
    return chr(ord("a") + col)


def cell_name(rules: Rules, row: int, col: int, layer: int = 0) -> str:
    """``b3`` for row 2, col 1; ``L2 b3`` on layer 1 of a 3D board."""
    base = f"{column_name(col)}{row + 1}"
    return f"L{layer + 1} {base}" if rules.is_3d else base


def pillar_name(row: int, col: int) -> str:
    """A 3D gravity stack, named by the cell it stands on in every layer: ``b3``."""
    return f"{column_name(col)}{row + 1}"


def named_cell(rules: Rules, row: int, col: int, layer: int = 0) -> str:
    """``b3 (row 2, col 1)``: the board's name, then the wire's 0-based numbers."""
    where = f"row {row}, col {col}" + (f", layer {layer}" if rules.is_3d else "")
    return f"{cell_name(rules, row, col, layer)} ({where})"
