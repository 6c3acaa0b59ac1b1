"""The soak's report: a row per fault kind, a row for games no fault touched, the total.

A game counts in the row of every fault kind injected while it was in play, from the
fault's start to the system's recovery (so the kind rows may add up to more than the
total); its acknowledged, lost and doubled moves count with it. A reconnect and an
``unavailable`` error count for the last fault injected before they happened.
``failures`` lists every game that lost, doubled or phantomed a move, got stuck or left a
spectator behind, with its room id and what went wrong. ``placement`` says where the
sockets landed and how many rooms had their players on different servers
(bench.soak.placement); it is reported, not judged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .check import judge
from .game import GameLog
from .placement import render_placement
from .tally import NO_FAULT, Tally, percentile

__all__ = ["COLUMNS", "build_report", "render_table"]

COLUMNS = (
    ("fault", "fault"),
    ("injected", "injected"),
    ("games", "games"),
    ("acked", "acked moves"),
    ("lost", "lost"),
    ("doubled", "doubled"),
    ("stuck", "stuck"),
    ("orphaned", "orphaned at join"),
    ("reconnects", "reconnects"),
    ("reconnect_p50", "reconnect p50 s"),
    ("reconnect_p99", "p99 s"),
    ("reconnect_max", "max s"),
    ("unavailable", "unavailable"),
)


def _row(
    name: str, injected: int, games: list[GameLog], reconnects: list[float], unavailable: int
) -> dict[str, Any]:
    row: dict[str, Any] = {"fault": name, "injected": injected}
    verdicts = [judge(g.acks, g.refused, g.record or []) for g in games if g.record is not None]
    row["games"] = sum(1 for g in games if g.outcome != "orphaned")
    row["acked"] = sum(v.acknowledged for v in verdicts)
    row["lost"] = sum(len(v.lost) for v in verdicts)
    row["doubled"] = sum(len(v.doubled) + len(v.phantom) for v in verdicts)
    row["stuck"] = sum(1 for g in games if g.outcome == "stuck" or g.behind)
    row["orphaned"] = sum(1 for g in games if g.outcome == "orphaned")
    row["reconnects"] = len(reconnects)
    for key, fraction in (("reconnect_p50", 0.5), ("reconnect_p99", 0.99), ("reconnect_max", 1)):
        value = percentile(reconnects, fraction)
        row[key] = None if value is None else round(value, 3)
    row["unavailable"] = unavailable
    return row


def _failures(games: Iterable[GameLog]) -> list[dict[str, Any]]:
    failures = []
    for game in games:
        verdict = judge(game.acks, game.refused, game.record or [])
        problems: dict[str, Any] = {}
        if game.record is not None and not verdict.clean:
            problems.update(
                lost=list(verdict.lost),
                doubled=list(verdict.doubled),
                phantom=list(verdict.phantom),
            )
        if game.outcome == "stuck":
            problems["stuck"] = game.reason
        if game.behind:
            problems["spectators_behind"] = game.behind
        if game.outcome != "orphaned" and game.room_id is not None and game.record is None:
            problems["record"] = "the room's record could not be read"
        if problems:
            failures.append(
                {"game": game.number, "room_id": game.room_id, "faults": sorted(game.faults)}
                | problems
            )
    return failures


def build_report(
    games: list[GameLog],
    tally: Tally,
    injected: Mapping[str, int],
    *,
    asked: Mapping[str, int],
    seconds: float,
    options: Mapping[str, Any],
    fault_errors: Iterable[str] = (),
    placement: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    kinds = [kind for kind in asked if asked[kind] or injected.get(kind)]
    rows = [
        _row(
            kind,
            injected.get(kind, 0),
            [g for g in games if kind in g.faults],
            tally.reconnects.get(kind, []),
            tally.unavailable[kind],
        )
        for kind in kinds
    ]
    rows.append(
        _row(
            NO_FAULT,
            0,
            [g for g in games if not g.faults],
            tally.reconnects.get(NO_FAULT, []),
            tally.unavailable[NO_FAULT],
        )
    )
    everything = [s for samples in tally.reconnects.values() for s in samples]
    total = _row("all", sum(injected.values()), games, everything, sum(tally.unavailable.values()))
    rows.append(total)
    failures = _failures(games)
    orphans = [
        {"game": g.number, "room_id": g.room_id, "reason": g.reason, "faults": sorted(g.faults)}
        for g in games
        if g.outcome == "orphaned"
    ]
    short = {kind: asked[kind] - injected.get(kind, 0) for kind in kinds}
    fault_errors = list(fault_errors)
    return {
        "ok": not failures and not fault_errors and not orphans,
        "fault_errors": fault_errors,
        "seconds": round(seconds, 1),
        "options": dict(options),
        "asked": dict(asked),
        "injected": dict(injected),
        "not_injected": {kind: n for kind, n in short.items() if n > 0},
        "rows": rows,
        "failures": failures,
        "orphaned": orphans,
        "placement": None if placement is None else dict(placement),
    }


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def render_table(report: Mapping[str, Any]) -> str:
    """The report as a Markdown table, then its failures and notes."""
    lines = [
        "| " + " | ".join(title for _, title in COLUMNS) + " |",
        "|" + "|".join(" --- " if key == "fault" else " ---: " for key, _ in COLUMNS) + "|",
    ]
    for row in report["rows"]:
        lines.append("| " + " | ".join(_cell(row[key]) for key, _ in COLUMNS) + " |")
    total = report["rows"][-1]
    lines.append("")
    lines.append(
        f"{total['games']} games, {total['acked']} acknowledged moves, "
        f"{total['lost']} lost, {total['doubled']} doubled, {total['stuck']} stuck, "
        f"{total['orphaned']} orphaned at join, in {report['seconds']} s"
    )
    if report.get("placement"):
        lines.extend(render_placement(report["placement"]))
    if report["not_injected"]:
        lines.append(
            "not injected before --duration ran out: "
            + ", ".join(f"{kind} {n}" for kind, n in report["not_injected"].items())
        )
    for error in report["fault_errors"]:
        lines.append(f"FAILED to recover from a fault: {error}")
    for failure in report["failures"]:
        lines.append(f"FAILED game {failure['game']} room {failure['room_id']}: {failure}")
    for orphan in report["orphaned"]:
        lines.append(f"FAILED game {orphan['game']} room {orphan['room_id']}: {orphan['reason']}")
    lines.append(
        "OK" if report["ok"] else "FAILED: moves lost or doubled, games stuck or seats orphaned"
    )
    return "\n".join(lines)
