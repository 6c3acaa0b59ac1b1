"""Our solver beside Pascal Pons' on Connect Four, in one run: his C++ solver, our compiled
value search and our pure-Python one, each proving the empty board's win/draw/loss value
without any opening book (``bench.pons`` builds his), with nodes, CPU seconds, the cost of
a node and of the proof, and our costs as multiples of his.

    .venv/bin/python -m bench.solver --sections versus [--cap-s S] [--pons-src GIT-OR-DIR]
"""

from __future__ import annotations

from pathlib import Path
from time import process_time
from typing import Any

from core import Game, Rules
from core.ai import Budget, Solver
from core.ai.budget import OutOfBudget
from core.ai.table import LARGE_BUCKETS

from .pons import build_pons

__all__ = ["VERSUS_BOARDS", "bench_versus"]

VERSUS_BOARDS: dict[str, tuple[int, int]] = {  # name -> (columns, rows)
    "Connect Four 5 cols × 4 rows": (5, 4),
    "Connect Four 6 cols × 4 rows": (6, 4),
    "Connect Four 6 cols × 5 rows": (6, 5),
}
_VALUES = {1: "win", 0: "draw", -1: "loss"}  # for the side to move, the first player


def _ours(rules: Rules, pure: bool, cap: float) -> dict[str, Any]:
    solver = Solver(rules, table_buckets=LARGE_BUCKETS, clock=process_time, pure=pure)
    position = solver.start(Game(rules), Budget(seconds=cap))
    start = process_time()
    try:
        value: str = _VALUES[solver.value(position)]
    except OutOfBudget:
        value = f"unproven after {cap:g} s"
    cpu = process_time() - start
    return {"implementation": solver.implementation, "value": value, **_costs(solver.nodes, cpu)}


def _costs(nodes: int, cpu: float) -> dict[str, Any]:
    return {
        "nodes": nodes,
        "cpu_s": round(cpu, 4),
        "ns_per_node": round(cpu / nodes * 1e9) if nodes else None,
    }


def bench_versus(
    cap: float, pons_source: str, build_dir: Path, only: set[str] | None = None
) -> list[dict[str, Any]]:
    """A row a board: Pons' proof, then ours compiled and pure with their ratios to his."""
    rows = []
    for name, (cols, rows_) in VERSUS_BOARDS.items():
        if only is not None and name not in only:
            continue
        pons = build_pons(pons_source, cols, rows_, build_dir).solve("", weak=True)
        theirs = {
            "implementation": "pons",
            "value": _VALUES[(pons.score > 0) - (pons.score < 0)],
            **_costs(pons.nodes, pons.cpu_s),
        }
        rules = Rules(rows_, cols, 4, gravity=True)
        entries = [theirs]
        for pure in (False, True):
            ours = _ours(rules, pure, cap)
            if ours["value"] == theirs["value"]:
                ours["x_pons_per_node"] = _ratio(ours["ns_per_node"], theirs["ns_per_node"])
                ours["x_pons_per_proof"] = _ratio(ours["cpu_s"], theirs["cpu_s"])
            entries.append(ours)
        rows.append({"board": name, "solvers": entries})
    return rows


def _ratio(ours: float | None, theirs: float | None) -> float | None:
    if not ours or not theirs:
        return None
    return round(ours / theirs, 1)
