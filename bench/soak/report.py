"""The soak's report: a row per fault kind, a row for games no fault touched, the total;
what was compared; and every check, each with its own exit status.

A game counts in the row of every fault kind injected while it was in play, from the
fault's start to the system's recovery (so the kind rows may add up to more than the
total); its acknowledged, lost, doubled, reordered and wrong-version moves count with it.
A reconnect and an ``unavailable`` error count for the last fault injected before they
happened. ``failures`` lists every game that failed a check (bench.soak.check), with its
room id and one line per problem. ``placement`` says where the sockets landed and how many
rooms had their players on different servers (bench.soak.placement); it is reported, not
judged.

``CHECKS`` are the checks in order of precedence: the run's exit status is the code of the
first one that failed (``tictactoe soak`` documents them), and the summary names each
failed one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict
from typing import Any

from .check import StoredGame, Verdict, judge
from .game import GameLog
from .logs import LogScan
from .placement import render_placement
from .tally import NO_FAULT, Tally, percentile

__all__ = ["CHECKS", "COLUMNS", "build_report", "render_table"]

CHECKS: tuple[tuple[str, int, str], ...] = (
    ("lost", 3, "acknowledged moves the stored record does not hold"),
    ("doubled", 4, "acknowledged moves held twice, or acknowledged at two versions"),
    ("phantom", 5, "moves refused for good that the record holds anyway"),
    ("reordered", 6, "acknowledged moves the record holds in another order"),
    ("version", 7, "acknowledged moves the store holds at another version"),
    ("server_logs", 8, "tracebacks, ERROR lines, ResourceWarnings or leaks in server logs"),
    ("recovery", 9, "faults the system did not recover from within --restart-limit"),
    ("stuck", 10, "games not finished, in play or in the store, or with a spectator behind"),
    ("orphaned", 11, "games whose seat was lost with its welcome"),
    ("not_injected", 12, "faults asked for but not injected"),
)
"""(name, exit status, what a failure of it counts)."""

COLUMNS = (
    ("fault", "fault"),
    ("injected", "injected"),
    ("recovery_max", "recovery max s"),
    ("games", "games"),
    ("acked", "acked moves"),
    ("lost", "lost"),
    ("doubled", "doubled"),
    ("reordered", "reordered"),
    ("wrong_version", "wrong version"),
    ("stuck", "stuck"),
    ("orphaned", "orphaned at join"),
    ("reconnects", "reconnects"),
    ("reconnect_p50", "reconnect p50 s"),
    ("reconnect_p99", "p99 s"),
    ("reconnect_max", "max s"),
    ("unavailable", "unavailable"),
)
FAILURES_SHOWN = 20
"""Failed games printed under the table (the JSON lists every one)."""

MISSING = StoredGame((), {}, "missing from the store")


def _verdict(game: GameLog) -> Verdict | None:
    if game.outcome == "orphaned" or game.room_id is None:
        return None
    return judge(game.acks, game.refused, game.record or MISSING)


def _stuck(game: GameLog, verdict: Verdict | None) -> bool:
    if game.outcome == "orphaned":
        return False
    return (
        game.outcome == "stuck" or bool(game.behind) or (verdict is not None and verdict.unfinished)
    )


def _row(
    name: str,
    games: list[tuple[GameLog, Verdict | None]],
    *,
    injected: int,
    recoveries: list[float],
    reconnects: list[float],
    unavailable: int,
) -> dict[str, Any]:
    verdicts = [v for _, v in games if v is not None]
    row: dict[str, Any] = {"fault": name, "injected": injected}
    row["recovery_max"] = round(max(recoveries), 3) if recoveries else None
    row["games"] = sum(1 for g, _ in games if g.outcome != "orphaned")
    row["acked"] = sum(v.acknowledged for v in verdicts)
    row["lost"] = sum(len(v.lost) for v in verdicts)
    row["doubled"] = sum(len(v.doubled) + len(v.phantom) for v in verdicts)
    row["reordered"] = sum(len(v.reordered) for v in verdicts)
    row["wrong_version"] = sum(len(v.wrong_version) for v in verdicts)
    row["stuck"] = sum(1 for g, v in games if _stuck(g, v))
    row["orphaned"] = sum(1 for g, _ in games if g.outcome == "orphaned")
    row["reconnects"] = len(reconnects)
    for key, fraction in (("reconnect_p50", 0.5), ("reconnect_p99", 0.99), ("reconnect_max", 1)):
        value = percentile(reconnects, fraction)
        row[key] = None if value is None else round(value, 3)
    row["unavailable"] = unavailable
    return row


def _failure(game: GameLog, verdict: Verdict | None) -> dict[str, Any] | None:
    problems = list(verdict.problems) if verdict is not None else []
    if game.outcome == "stuck":
        problems.append(f"stuck: {game.reason}")
    if game.behind:
        problems.append(f"stuck: {game.behind} spectators never saw the last move")
    if not problems:
        return None
    return {
        "game": game.number,
        "room_id": game.room_id,
        "faults": sorted(game.faults),
        "problems": problems,
        "behind": list(game.behind_trails),
    }


def build_report(
    games: list[GameLog],
    tally: Tally,
    injected: Mapping[str, int],
    *,
    asked: Mapping[str, int],
    seconds: float,
    options: Mapping[str, Any],
    recoveries: Mapping[str, list[float]] | None = None,
    not_recovered: Iterable[str] = (),
    logs: LogScan | None = None,
    records: str = "store",
    placement: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The report of a run; ``records`` says where the records were read (``store`` or
    ``snapshot``), ``logs`` is the servers' logs scanned (None: the soak started none)."""
    recoveries = recoveries or {}
    judged = [(game, _verdict(game)) for game in games]
    kinds = [kind for kind in asked if asked[kind] or injected.get(kind)]
    rows = [
        _row(
            kind,
            [(g, v) for g, v in judged if kind in g.faults],
            injected=injected.get(kind, 0),
            recoveries=recoveries.get(kind, []),
            reconnects=tally.reconnects.get(kind, []),
            unavailable=tally.unavailable[kind],
        )
        for kind in kinds
    ]
    rows.append(
        _row(
            NO_FAULT,
            [(g, v) for g, v in judged if not g.faults],
            injected=0,
            recoveries=[],
            reconnects=tally.reconnects.get(NO_FAULT, []),
            unavailable=tally.unavailable[NO_FAULT],
        )
    )
    everything = [s for samples in tally.reconnects.values() for s in samples]
    all_recoveries = [s for samples in recoveries.values() for s in samples]
    total = _row(
        "all",
        judged,
        injected=sum(injected.values()),
        recoveries=all_recoveries,
        reconnects=everything,
        unavailable=sum(tally.unavailable.values()),
    )
    rows.append(total)
    failures = [f for g, v in judged if (f := _failure(g, v)) is not None]
    orphans = [
        {"game": g.number, "room_id": g.room_id, "reason": g.reason, "faults": sorted(g.faults)}
        for g in games
        if g.outcome == "orphaned"
    ]
    not_recovered = list(not_recovered)
    short = {kind: asked[kind] - injected.get(kind, 0) for kind in kinds}
    verdicts = [v for _, v in judged if v is not None]
    counts = {
        "lost": total["lost"],
        "doubled": sum(len(v.doubled) for v in verdicts),
        "phantom": sum(len(v.phantom) for v in verdicts),
        "reordered": total["reordered"],
        "version": total["wrong_version"],
        "server_logs": 0 if logs is None else logs.problems,
        "recovery": len(not_recovered),
        "stuck": total["stuck"],
        "orphaned": total["orphaned"],
        "not_injected": sum(n for n in short.values() if n > 0),
    }
    checks = [
        {"check": name, "exit_status": code, "failed": counts[name], "counts": about}
        for name, code, about in CHECKS
    ]
    failed = [check for check in checks if check["failed"]]
    compared = {
        "records_from": records,
        "games_checked": len(verdicts),
        "moves_compared": total["acked"],
        "versions_compared": sum(v.versions_compared for v in verdicts),
        "log_files": None if logs is None else logs.files,
        "log_lines": None if logs is None else logs.lines,
    }
    return {
        "ok": not failed,
        "exit_status": failed[0]["exit_status"] if failed else 0,
        "failed_checks": [check["check"] for check in failed],
        "checks": checks,
        "compared": compared,
        "seconds": round(seconds, 1),
        "options": dict(options),
        "asked": dict(asked),
        "injected": dict(injected),
        "not_injected": {kind: n for kind, n in short.items() if n > 0},
        "not_recovered": not_recovered,
        "logs": None if logs is None else asdict(logs),
        "rows": rows,
        "failures": failures,
        "timeline": list(tally.timeline),
        "orphaned": orphans,
        "placement": None if placement is None else dict(placement),
    }


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _compared(report: Mapping[str, Any]) -> list[str]:
    compared = report["compared"]
    source = (
        "from the store (moves, order, each move_id's version, status)"
        if compared["records_from"] == "store"
        else "from GET /api/rooms/{id} (moves, order, status; no per-move versions)"
    )
    lines = [
        f"compared: {compared['games_checked']} games' records read {source}; "
        f"{compared['moves_compared']} acknowledged moves compared in acknowledged order, "
        f"{compared['versions_compared']} of them with the version the store holds"
    ]
    logs = report.get("logs")
    if logs is None:
        lines.append("server logs: not scanned (the soak started no server)")
    else:
        lines.append(
            f"server logs: {logs['lines']} lines scanned in {logs['files']} files (one per "
            f"server launch): {logs['tracebacks']} tracebacks, {logs['errors']} ERROR lines, "
            f"{logs['warnings']} resource warnings or leaks"
            + (
                f"; {logs['expected']} leak lines after a kill -9 (the tracker's cleanup)"
                if logs["expected"]
                else ""
            )
        )
    return lines


def render_table(report: Mapping[str, Any]) -> str:
    """The report as a Markdown table, then what was compared, its failures and checks."""
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
        f"{total['lost']} lost, {total['doubled']} doubled, {total['reordered']} reordered, "
        f"{total['wrong_version']} at a wrong version, {total['stuck']} stuck, "
        f"{total['orphaned']} orphaned at join, in {report['seconds']} s"
    )
    lines.extend(_compared(report))
    if report.get("placement"):
        lines.extend(render_placement(report["placement"]))
    if report["not_injected"]:
        short = report["not_injected"]
        asked = sum(report["asked"].values())
        why = (
            "the system did not recover from a fault"
            if report["not_recovered"]
            else "the run was cut short"
        )
        lines.append(
            f"not injected: {sum(short.values())} of {asked} faults "
            f"({', '.join(f'{kind} {n}' for kind, n in short.items())}): {why}"
        )
    for error in report["not_recovered"]:
        lines.append(f"not recovered: {error}")
    logs = report.get("logs")
    if logs is not None and logs["tracebacks"] + logs["errors"] + logs["warnings"]:
        lines.extend(f"server log: {example}" for example in logs["examples"])
    for failure in report["failures"][:FAILURES_SHOWN]:
        lines.append(
            f"FAILED game {failure['game']} room {failure['room_id']} "
            f"(faults: {', '.join(failure['faults']) or 'none'}):"
        )
        lines.extend(f"  {problem}" for problem in failure["problems"][:10])
    if len(report["failures"]) > FAILURES_SHOWN:
        lines.append(f"... and {len(report['failures']) - FAILURES_SHOWN} more failed games")
    if report["failures"] and report.get("timeline"):  # the trails' times are on this clock
        lines.append(
            "faults (seconds since the start, as in the trails): "
            + ", ".join(
                f"{fault['at']}s {fault['fault']} (recovered in {fault['recovered_s']} s)"
                for fault in report["timeline"]
            )
        )
    for orphan in report["orphaned"]:
        lines.append(f"FAILED game {orphan['game']} room {orphan['room_id']}: {orphan['reason']}")
    failed = [check for check in report["checks"] if check["failed"]]
    for check in failed:
        lines.append(
            f"FAILED check {check['check']} (exit {check['exit_status']}): "
            f"{check['failed']} {check['counts']}"
        )
    if failed:
        lines.append(
            "FAILED: " + ", ".join(f"{c['check']} (exit {c['exit_status']})" for c in failed)
        )
    else:
        lines.append(f"OK: all {len(report['checks'])} checks passed")
    return "\n".join(lines)
