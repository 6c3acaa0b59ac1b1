"""The solver bench's proof rows run end to end on the small boards and agree with the
known values (its figures are read by people, so a broken row would go unnoticed)."""

from __future__ import annotations

import json

import pytest

from bench.solver import bench_solve, main


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
