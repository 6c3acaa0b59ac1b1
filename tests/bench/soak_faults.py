"""What the new-fault soak tests share: a soak run with its JSON report, and the check that
it came out clean."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli import main

__all__ = ["NO_CLASSIC", "clean", "soak"]

NO_CLASSIC = ["--kills", "0", "--terms", "0", "--redis-restarts", "0", "--redis-stops", "0"]


def soak(tmp_path: Path, *flags: str) -> tuple[int, dict[str, Any]]:
    out = tmp_path / "soak.json"
    common = ["--games", "6", "--interval", "1", "--duration", "300", "--quiet"]
    code = main(["soak", *common, *flags, "--json", str(out)])
    return code, json.loads(out.read_text())


def clean(code: int, report: dict[str, Any], asked: dict[str, int]) -> dict[str, Any]:
    """Every check passed: nothing lost, doubled, reordered or at a wrong version, every game
    finished and every spectator saw its last move, every fault injected."""
    assert report["failures"] == [], (report["failures"], report["timeline"])
    assert not report["not_recovered"] and not report["orphaned"], report
    assert report["failed_checks"] == [] and code == 0, (code, report["failed_checks"])
    assert report["not_injected"] == {}
    assert report["injected"] == asked
    rows = {row["fault"]: row for row in report["rows"]}
    for kind in asked:
        assert rows[kind]["games"] > 0, rows[kind]
        assert (rows[kind]["lost"], rows[kind]["doubled"]) == (0, 0)
        assert (rows[kind]["reordered"], rows[kind]["wrong_version"]) == (0, 0)
    total = rows["all"]
    assert total["acked"] >= 25 * total["games"] > 0
    return rows
