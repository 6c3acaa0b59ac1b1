"""The servers' logs, scanned: every line each ``tictactoe serve`` the soak started wrote to
its stdout and stderr, one file per launch (bench.soak.processes).

A line is a **problem** when it starts a traceback (``Traceback (most recent call last)``),
is logged at ERROR or CRITICAL (text or JSON format, docs/operations.md "Logs"), or reports
a ``ResourceWarning`` or semaphores the resource tracker found leaked. One exception: a
launch the soak ended with ``kill -9`` shuts nothing down, and its resource tracker (a child
process that outlives it) then says it cleaned up the bot pool's semaphores; those lines are
**expected** there and counted apart.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["LogScan", "scan_logs", "scan_text"]

_TEXT_LEVEL = re.compile(r"^\S+ (ERROR|CRITICAL) ")
_LEAK = "leaked semaphore"
_TRACEBACK = "Traceback (most recent call last)"
EXAMPLES = 10
"""Problem lines kept verbatim in the report (every one is counted)."""


@dataclass(slots=True)
class LogScan:
    files: int = 0
    lines: int = 0
    tracebacks: int = 0
    errors: int = 0
    """Lines at ERROR or CRITICAL."""
    warnings: int = 0
    """``ResourceWarning``s and leaked semaphores where a clean stop should leave none."""
    expected: int = 0
    """Leaked-semaphore lines after a ``kill -9`` (the tracker cleaning up: not a problem)."""
    examples: list[str] = field(default_factory=list)

    @property
    def problems(self) -> int:
        return self.tracebacks + self.errors + self.warnings

    def add(self, other: LogScan) -> None:
        self.files += other.files
        self.lines += other.lines
        self.tracebacks += other.tracebacks
        self.errors += other.errors
        self.warnings += other.warnings
        self.expected += other.expected
        self.examples.extend(other.examples[: EXAMPLES - len(self.examples)])


def _level(line: str) -> str | None:
    if line.startswith("{"):
        try:
            record = json.loads(line)
        except ValueError:
            return None
        level = record.get("level") if isinstance(record, dict) else None
        return str(level).upper() if level is not None else None
    match = _TEXT_LEVEL.match(line)
    return match.group(1) if match else None


def scan_text(text: str, *, name: str = "", killed: bool = False) -> LogScan:
    """One launch's log; ``killed``: it ended with ``kill -9``."""
    scan = LogScan(files=1)
    for number, line in enumerate(text.splitlines(), 1):
        scan.lines += 1
        if _TRACEBACK in line:
            scan.tracebacks += 1
        elif _level(line) in ("ERROR", "CRITICAL"):
            scan.errors += 1
        elif _LEAK in line and killed:
            scan.expected += 1
            continue
        elif _LEAK in line or "ResourceWarning" in line:
            scan.warnings += 1
        else:
            continue
        if len(scan.examples) < EXAMPLES:
            scan.examples.append(f"{name}:{number}: {line.strip()[:300]}")
    return scan


def scan_logs(launches: Iterable[tuple[Path, bool]]) -> LogScan:
    """Every log (its path, and whether that launch ended with ``kill -9``)."""
    total = LogScan()
    for path, killed in launches:
        text = path.read_text(errors="replace") if path.exists() else ""
        total.add(scan_text(text, name=path.name, killed=killed))
    return total
