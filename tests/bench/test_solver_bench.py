"""The solver bench's proof rows run end to end on the small boards and agree with the
known values (its figures are read by people, so a broken row would go unnoticed)."""

from __future__ import annotations

import json
import os

import pytest

from bench.pons import PONS_SOURCE, PonsError, build_pons
from bench.solver import bench_solve, main
from bench.solver_versus import bench_versus


def test_the_proof_rows_report_known_values_and_their_cost() -> None:
    rows = {row["board"]: row for row in bench_solve(True, 60.0, {"3×3 k=3", "4×4 k=3"})}
    assert set(rows) == {"3×3 k=3", "4×4 k=3"}
    for row in rows.values():
        assert row["result"] == row["known"]
        assert row["nodes"] > 0 and row["cpu_s"] >= 0 and row["wall_s"] >= 0
    assert rows["4×4 k=3"]["plies"] == 5  # a win: its distance measured too
    assert "plies" not in rows["3×3 k=3"]  # a draw has none


def test_a_board_past_its_cap_is_reported_unproven(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--sections", "solve", "--boards", "4×4 k=4", "--cap-s", "0.01", "--json"])
    (row,) = json.loads(capsys.readouterr().out)["solve"]
    assert code == 0 and row["result"] == "unproven after 0.01 s" and row["known"] == "draw"


@pytest.mark.slow
def test_the_versus_rows_put_pons_and_both_of_ours_side_by_side(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Pons' solver built from TICTACTOE_PONS_SRC (a git source or folder; by default his
    repository on GitHub) and run beside ours on Connect Four 5×4: the same value, the same
    nodes for both of ours, the ratios computed."""
    source = os.environ.get("TICTACTOE_PONS_SRC", PONS_SOURCE)
    build = tmp_path_factory.mktemp("pons")
    try:
        build_pons(source, 5, 4, build)
    except PonsError as error:
        if "Could not resolve host" in str(error) or "unable to access" in str(error):
            pytest.skip(f"no network to fetch Pons' solver (set TICTACTOE_PONS_SRC): {error}")
        raise
    (row,) = bench_versus(60.0, source, build, {"Connect Four 5 cols × 4 rows"})
    pons, compiled, pure = row["solvers"]
    assert [s["implementation"] for s in row["solvers"]] == ["pons", "compiled", "pure"]
    assert pons["value"] == compiled["value"] == pure["value"] == "draw"
    assert compiled["nodes"] == pure["nodes"] > 0 and pons["nodes"] > 0
    assert compiled["x_pons_per_node"] > 0 and pure["x_pons_per_proof"] > 0
