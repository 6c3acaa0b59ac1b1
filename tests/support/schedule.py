"""The longest test files first, so that no worker is left with a long one at the end.

``./run test`` spreads whole test files over the cores (pytest-xdist ``--dist loadfile``),
in the order the files are collected; xdist's own reordering (most tests first) would put
the one-test chaos and soak files, the longest of all, last, and the run would end with one
worker busy for half a minute while the other waits. ``tests/conftest.py`` orders the
collected files by ``durations.json`` (seconds each file took in a full run on the 2-core
machine, summed over its tests; a file missing there counts as short), longest first, and
keeps each file's own order of tests. The figures only steer the order: a stale one makes
the run a little longer, never wrong. To refresh them after a run of each tier (a file with
tests in both tiers gets the sum):

    ./run test --junitxml=/tmp/default.xml && ./run test --slow --junitxml=/tmp/slow.xml
    .venv/bin/python -m tests.support.schedule /tmp/default.xml /tmp/slow.xml
"""

from __future__ import annotations

import collections
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

__all__ = ["DURATIONS", "file_durations", "longest_files_first"]

DURATIONS = Path(__file__).with_name("durations.json")
ROOT = Path(__file__).resolve().parents[2]
SHORTEST_KEPT = 3.0
"""Files under this many seconds are left out of durations.json (they count as 0)."""


def _load() -> dict[str, float]:
    try:
        loaded = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}
    return {str(path): float(seconds) for path, seconds in loaded.items()}


def longest_files_first(items: list[pytest.Item]) -> None:
    """Reorder ``items`` in place: whole files, the longest (by durations.json) first."""
    seconds = _load()
    order: dict[str, int] = {}
    for item in items:
        order.setdefault(item.nodeid.split("::", 1)[0], len(order))

    def key(item: pytest.Item) -> tuple[float, int]:
        path = item.nodeid.split("::", 1)[0]
        return (-seconds.get(path, 0.0), order[path])

    items.sort(key=key)


def _module_path(classname: str) -> str | None:
    """``tests.server.test_x.TestY`` -> ``tests/server/test_x.py`` (the file that exists)."""
    parts = classname.split(".")
    while parts:
        path = Path(*parts).with_suffix(".py")
        if (ROOT / path).is_file():
            return path.as_posix()
        parts.pop()
    return None


def file_durations(*junit_xml: Path) -> dict[str, float]:
    """Seconds per test file in JUnit XML reports (of disjoint runs, such as the two tiers:
    summed), the files of at least SHORTEST_KEPT."""
    totals: dict[str, float] = collections.defaultdict(float)
    for report in junit_xml:
        for case in ET.parse(report).getroot().iter("testcase"):
            path = _module_path(case.get("classname", ""))
            if path is not None:
                totals[path] += float(case.get("time", 0.0))
    longest = sorted(totals.items(), key=lambda pair: -pair[1])
    return {path: round(s) for path, s in longest if s >= SHORTEST_KEPT}


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python -m tests.support.schedule JUNIT_XML [JUNIT_XML...]")
    durations = file_durations(*map(Path, sys.argv[1:]))
    DURATIONS.write_text(json.dumps(durations, indent=1) + "\n")
    print(f"{DURATIONS}: {len(durations)} files")
