"""The soak's checker, log scan and verdict, on crafted records and logs: a missing, doubled,
reordered, phantom or wrong-version move, an unfinished game, a traceback or ERROR line in a
server log are each caught with a message of their own, and each makes ``tictactoe soak``
exit with its own status; a clean game passes, and the report says what was compared. And
the command's refusals: bad flags, a target that does not answer. No test here starts a
process (the real soak is tests/bench/test_soak_run.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import bench.soak
from bench.load.launch import free_port
from bench.soak import Ack, LogScan, StoredGame, build_report, judge, render_table, scan_text
from bench.soak.check import Cell
from bench.soak.game import SCRIPT, GameLog
from bench.soak.placement import placement
from bench.soak.tally import Tally, percentile
from cli import main

ASKED = {"server_kill": 1, "redis_kill": 0}


def _played(moves: int) -> tuple[list[Ack], StoredGame]:
    """The first ``moves`` of the script, each acknowledged once (two joins came first:
    the first move lands at version 3), and the matching record, finished at 25."""
    acks, cells = [], []
    for index, (row, col) in enumerate(SCRIPT[:moves]):
        cell = ("XO"[index % 2], row, col)
        acks.append(Ack(f"{cell[0]}{index:02d}", cell, 3 + index, duplicate=False))
        cells.append(cell)
    return acks, _stored(cells, {a.move_id: a.version for a in acks}, moves == len(SCRIPT))


def _stored(cells: list[Cell], versions: dict[str, int], finished: bool = True) -> StoredGame:
    return StoredGame(tuple(cells), versions, "finished" if finished else "playing")


def _game(number: int, acks: list[Ack], record: StoredGame, **kwargs: Any) -> GameLog:
    log = GameLog(number, room_id=f"room{number}", outcome="finished", **kwargs)
    log.acks, log.record = acks, record
    return log


def _report(*games: GameLog, logs: LogScan | None = None) -> dict[str, Any]:
    return build_report(
        list(games), Tally(), {"server_kill": 1}, asked=ASKED, seconds=1.0, options={}, logs=logs
    )


def _status(report: dict[str, Any]) -> tuple[int, list[str]]:
    return report["exit_status"], report["failed_checks"]


def test_a_clean_game_passes_and_the_report_says_what_was_compared() -> None:
    acks, record = _played(25)
    retry = Ack("X04", acks[4].cell, acks[4].version, duplicate=True)  # a retry answered
    verdict = judge([*acks, retry], {}, record)
    assert verdict.clean and verdict.problems == ()
    assert (verdict.acknowledged, verdict.versions_compared) == (25, 25)
    report = _report(_game(1, [*acks, retry], record, faults={"server_kill"}), logs=LogScan(2, 40))
    assert report["ok"] and report["failures"] == [] and _status(report) == (0, [])
    kill, none, total = report["rows"]
    assert (kill["fault"], kill["games"], kill["acked"], kill["injected"]) == (
        "server_kill",
        1,
        25,
        1,
    )
    assert (none["fault"], none["games"]) == ("none", 0)
    assert (total["lost"], total["doubled"], total["reordered"], total["wrong_version"]) == (
        0,
        0,
        0,
        0,
    )
    assert report["compared"] == {
        "records_from": "store",
        "games_checked": 1,
        "moves_compared": 25,
        "versions_compared": 25,
        "log_files": 2,
        "log_lines": 40,
    }
    table = render_table(report)
    assert "1 games' records read from the store" in table
    assert "25 acknowledged moves compared in acknowledged order, 25 of them with the version" in (
        table
    )
    assert "server logs: 40 lines scanned in 2 files" in table
    assert table.endswith("OK: all 10 checks passed")


def test_a_missing_move_is_lost() -> None:
    acks, record = _played(25)
    record = _stored([c for c in record.cells if c != acks[4].cell], dict(record.versions or {}))
    verdict = judge(acks, {}, record)
    assert verdict.lost == ("X04",) and not verdict.doubled and not verdict.reordered
    assert verdict.problems == (
        "lost: X04 X r0c4 was acknowledged at version 7 but the record does not hold it",
    )
    report = _report(_game(1, acks, record, faults={"server_kill"}))
    assert _status(report) == (3, ["lost"])
    assert report["rows"][0]["lost"] == 1 and report["rows"][-1]["lost"] == 1
    assert report["failures"][0]["problems"] == list(verdict.problems)
    table = render_table(report)
    assert "  lost: X04 X r0c4 was acknowledged at version 7" in table
    assert "FAILED check lost (exit 3): 1 acknowledged moves the stored record does not hold" in (
        table
    )
    assert table.endswith("FAILED: lost (exit 3)")


def test_a_doubled_move_is_caught_in_the_record_and_by_its_versions() -> None:
    acks, record = _played(9)
    twice = _stored([*record.cells, record.cells[2]], dict(record.versions or {}), False)
    verdict = judge(acks, {}, twice)
    assert verdict.doubled == ("X02",)
    assert "doubled: X02 X r0c2 is in the record 2 times" in verdict.problems
    # The same move_id acknowledged as new at two versions: applied twice.
    again = Ack("O03", acks[3].cell, acks[3].version + 5, duplicate=False)
    assert judge([*acks, again], {}, record).problems[0] == (
        "doubled: O03 was acknowledged at versions 6, 11"
    )
    acks25, record25 = _played(25)
    twice25 = _stored([*record25.cells, record25.cells[2]], dict(record25.versions or {}))
    report = _report(_game(1, acks25, twice25))
    assert _status(report) == (4, ["doubled"]) and report["rows"][-1]["doubled"] == 1
    assert report["rows"][-2]["fault"] == "none" and report["rows"][-2]["doubled"] == 1


def test_a_reordered_move_is_caught() -> None:
    acks, record = _played(25)
    cells = list(record.cells)
    cells[5], cells[7] = cells[7], cells[5]  # two of O's moves swapped in the store
    swapped = _stored(cells, dict(record.versions or {}))
    verdict = judge(acks, {}, swapped)
    assert verdict.reordered == ("O05", "O07") and not verdict.lost and not verdict.doubled
    assert verdict.problems == (
        "reordered: O05 was the 6th move acknowledged but is ply 8 of the record",
        "reordered: O07 was the 8th move acknowledged but is ply 6 of the record",
    )
    report = _report(_game(1, acks, swapped))
    assert _status(report) == (6, ["reordered"]) and report["rows"][-1]["reordered"] == 2


def test_a_wrong_version_is_caught_in_the_store_and_between_acks() -> None:
    acks, record = _played(25)
    versions = dict(record.versions or {})
    versions["X10"] = 99  # the store says the move landed at another version
    del versions["O11"]  # ... or holds no move of that move_id
    verdict = judge(acks, {}, _stored(list(record.cells), versions))
    assert verdict.wrong_version == ("X10", "O11") and not verdict.reordered
    assert verdict.problems == (
        "wrong version: X10 was acknowledged at version 13 but the store holds it at version 99",
        "wrong version: O11 was acknowledged at version 14 but the store holds no move of that "
        "move_id",
    )
    # Versions that do not grow from one acknowledged move to the next.
    backwards = [*acks[:3], Ack("O03", acks[3].cell, 4, duplicate=False), *acks[4:]]
    assert judge(backwards, {}, record).problems[0] == (
        "wrong version: O03 was acknowledged at version 4, not after X02's 5"
    )
    report = _report(_game(1, acks, _stored(list(record.cells), versions)))
    assert _status(report) == (7, ["version"]) and report["rows"][-1]["wrong_version"] == 2


def test_a_refused_move_that_landed_is_a_phantom() -> None:
    acks, record = _played(25)
    refused = {"X24": acks[24].cell}  # the mover was told "no", the store says "yes"
    verdict = judge(acks[:24], refused, record)
    assert verdict.phantom == ("X24",)
    assert verdict.problems == ("phantom: X24 X r4c2 was refused for good but the record holds it",)
    report = _report(_game(1, acks[:24], record, refused=refused))
    assert _status(report) == (5, ["phantom"])


def test_an_unfinished_game_in_the_store_is_stuck() -> None:
    acks, record = _played(25)
    playing = StoredGame(record.cells[:-1], record.versions, "playing")
    verdict = judge(acks[:-1], {}, playing)
    assert verdict.unfinished and verdict.problems == (
        "unfinished: the stored game is playing after 24 moves",
    )
    report = _report(_game(1, acks[:-1], playing))
    assert _status(report) == (10, ["stuck"]) and report["rows"][-1]["stuck"] == 1


def test_a_record_missing_from_the_store_loses_every_acknowledged_move() -> None:
    acks, _ = _played(25)
    report = _report(_game(1, acks, None))  # type: ignore[arg-type]
    assert _status(report) == (3, ["lost", "stuck"]) and report["rows"][-1]["lost"] == 25
    assert report["failures"][0]["problems"][-1] == (
        "unfinished: the stored game is missing from the store after 0 moves"
    )


def test_snapshot_records_compare_order_but_no_stored_versions() -> None:
    acks, record = _played(25)
    snapshot = StoredGame(record.cells, None, "finished")
    verdict = judge(acks, {}, snapshot)
    assert verdict.clean and verdict.versions_compared == 0


TRACEBACK_LOG = """\
2026-12-07T09:01:50.460Z INFO uvicorn.error [11041] Uvicorn running
2026-12-07T09:01:51.000Z WARNING tictactoe.server [ab12] refused a client: flood
Traceback (most recent call last):
  File "server/ws/socket.py", line 1, in serve
KeyError: 'x'
2026-12-07T09:01:52.000Z ERROR tictactoe.rooms [ab12] commit failed
{"time": "2026-12-07T09:01:53Z", "level": "critical", "logger": "x", "message": "y"}
{"time": "2026-12-07T09:01:53Z", "level": "info", "logger": "x", "message": "ERROR in text"}
/usr/lib/python3.11/asyncio/sslproto.py:1: ResourceWarning: unclosed transport
"""
LEAK = (
    "/usr/lib/python3.11/multiprocessing/resource_tracker.py:254: UserWarning: "
    "resource_tracker: There appear to be 5 leaked semaphore objects to clean up at shutdown"
)


def test_the_log_scan_finds_tracebacks_errors_and_warnings() -> None:
    scan = scan_text(TRACEBACK_LOG, name="serve-1.log")
    assert (scan.files, scan.lines) == (1, 9)
    assert (scan.tracebacks, scan.errors, scan.warnings, scan.expected) == (1, 2, 1, 0)
    assert scan.examples[0] == "serve-1.log:3: Traceback (most recent call last):"
    report = _report(_game(1, *_played(25)), logs=scan)
    assert _status(report) == (8, ["server_logs"])
    table = render_table(report)
    assert "server logs: 9 lines scanned in 1 files (one per server launch): 1 tracebacks, " in (
        table
    )
    assert "server log: serve-1.log:3: Traceback (most recent call last):" in table
    assert table.endswith("FAILED: server_logs (exit 8)")


def test_a_leak_is_a_problem_after_a_clean_stop_and_expected_after_kill_9() -> None:
    stopped = scan_text(LEAK + "\n")
    assert (stopped.warnings, stopped.expected, stopped.problems) == (1, 0, 1)
    killed = scan_text(LEAK + "\n", killed=True)
    assert (killed.warnings, killed.expected, killed.problems) == (0, 1, 0)
    assert _report(_game(1, *_played(25)), logs=killed)["ok"]


def test_stuck_and_behind_games_fail_orphans_are_counted_apart() -> None:
    acks, record = _played(6)
    stuck = _game(1, acks, record, faults={"server_kill"})
    stuck.outcome, stuck.reason = "stuck", "not finished within 90 s, at move 6"
    behind = _game(2, *_played(25))
    behind.behind = 1
    orphan = GameLog(3, room_id="room3", outcome="orphaned", reason="orphaned at join: room_full")
    report = _report(stuck, behind, orphan, _game(4, *_played(25)))
    assert _status(report) == (10, ["stuck", "orphaned"])
    total = report["rows"][-1]
    assert (total["games"], total["stuck"], total["orphaned"], total["lost"]) == (3, 2, 1, 0)
    assert [f["game"] for f in report["failures"]] == [1, 2]
    assert report["failures"][0]["problems"] == [
        "unfinished: the stored game is playing after 6 moves",
        "stuck: not finished within 90 s, at move 6",
    ]
    assert report["orphaned"][0]["room_id"] == "room3"


def test_an_orphaned_seat_alone_fails_the_soak() -> None:
    # Players send a join_key: a seat lost with its welcome is taken again, so an orphan is
    # a server bug, not a fault's expected cost.
    orphan = GameLog(1, room_id="room1", outcome="orphaned", reason="orphaned at join: room_full")
    report = _report(orphan, _game(2, *_played(25)))
    assert _status(report) == (11, ["orphaned"]) and report["failures"] == []
    assert "FAILED game 1 room room1: orphaned at join" in render_table(report)


def test_faults_not_recovered_and_not_injected_are_their_own_checks() -> None:
    report = build_report(
        [_game(1, *_played(25))],
        Tally(),
        {"server_kill": 1},
        asked={"server_kill": 4},
        seconds=1.0,
        options={},
        not_recovered=["fault 2 (server_kill): not ready within 180 s"],
    )
    assert _status(report) == (9, ["recovery", "not_injected"])
    assert report["not_injected"] == {"server_kill": 3}
    table = render_table(report)
    assert (
        "not injected: 3 of 4 faults (server_kill 3): the system did not recover from a fault"
        in table
    )
    assert "not recovered: fault 2 (server_kill): not ready within 180 s" in table
    assert report["rows"][-1]["lost"] == 0  # what was not injected is no loss


def test_placement_counts_sockets_by_server_and_the_rooms_split() -> None:
    def seated(players: list[list[tuple[str, float]]], watchers: int = 0) -> GameLog:
        log = _game(len(games) + 1, *_played(25))
        log.seated = {"Xena": players[0], "Otto": players[1]}
        log.seated |= {f"watcher{i}": [("http://b", 1.0)] for i in range(watchers)}
        return log

    games: list[GameLog] = []
    games.append(seated([[("http://a", 1.0)], [("http://a", 1.5)]], watchers=2))  # together
    moved = seated([[("http://a", 2.0), ("http://b", 9.0)], [("http://a", 2.0)]])
    moved.apart = 3  # X came back on b; three moves were made with O still on a
    games.append(moved)
    games.append(seated([[("http://b", 12.0)], [("http://b", 12.0)]]))  # after a's restart
    games.append(seated([[("http://b", 12.0)], []]))  # O never seated: not a room seated
    names = {"http://a": "app1", "http://b": "app2"}
    summary = placement(games, {"app1": 10.0}, lambda url: names[url])
    assert summary["servers"] == {
        "app1": {"players": 4, "players_since_restart": 0, "spectators": 0},
        "app2": {"players": 4, "players_since_restart": None, "spectators": 2},
    }
    assert (summary["rooms"], summary["moved"], summary["split"]) == (3, 1, 1)
    assert (summary["split_at_end"], summary["moves_apart"]) == (1, 3)
    (example,) = summary["split_examples"]
    assert (example["game"], example["moves_apart"]) == (moved.number, 3)
    assert example["seated"] == {"Xena": [["app1", 0.0], ["app2", 7.0]], "Otto": [["app1", 0.0]]}
    report = build_report(games, Tally(), {}, asked={}, seconds=1.0, options={}, placement=summary)
    table = render_table(report)
    assert "players' sockets by server: app1 4 (0 since its last restart), app2 4;" in table
    assert "3 rooms seated: 1 had a player move to another server, 1 split" in table


def test_percentiles_are_nearest_rank() -> None:
    samples = [float(n) for n in range(1, 101)]
    assert percentile(samples, 0.5) == 50.0
    assert percentile(samples, 0.99) == 99.0
    assert percentile(samples, 1.0) == 100.0
    assert percentile([], 0.5) is None


def _without(cell_index: int) -> GameLog:
    acks, record = _played(25)
    cells = [c for i, c in enumerate(record.cells) if i != cell_index]
    return _game(1, acks, _stored(cells, dict(record.versions or {})))


@pytest.mark.parametrize(
    ("games", "code", "said"),
    [
        ((_game(1, *_played(25)),), 0, "OK: all 10 checks passed"),
        ((_without(3),), 3, "FAILED: lost (exit 3)"),
    ],
)
def test_the_command_exits_with_the_failed_check_s_status(
    games: tuple[GameLog, ...],
    code: int,
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The run itself is swapped for the report of the synthetic games: a real soak does not
    # lose moves on demand (tests/bench/test_soak_run.py runs the real one).
    monkeypatch.setattr(bench.soak, "run_soak", lambda options: _report(*games))
    out = tmp_path / "soak.json"
    assert main(["soak", "--json", str(out)]) == code
    written = json.loads(out.read_text())
    assert written["ok"] is (code == 0) and written["exit_status"] == code
    assert capsys.readouterr().out.rstrip().endswith(said)


def test_the_help_lists_every_check_s_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["soak", "--help"])
    text = capsys.readouterr().out
    for name, code, _ in bench.soak.CHECKS:
        assert f"  {code:>2}  {name}: " in text
    statuses = [code for _, code, _ in bench.soak.CHECKS]
    assert len(set(statuses)) == len(statuses) and not {0, 1, 2} & set(statuses)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--servers", "1"], "--servers must be at least 2"),
        (["--games", "0"], "--games must be at least 1"),
        (["--target", "http://10.0.0.1:8000"], "loopback"),
        (["--target", "http://127.0.0.1:8000"], "--kills needs servers the soak starts"),
        (
            ["--target", "http://127.0.0.1:8000", "--kills", "0", "--terms", "0"],
            "--redis-restarts needs servers",
        ),
        (["--redis-url", "redis://127.0.0.1:1/0"], "--redis-url goes with --target"),
        (["--storm", "-1"], "--storm must be 0 or more"),
        (
            ["--target", "http://127.0.0.1:8000", "--affinity", "--kills", "0"],
            "--affinity puts HAProxy before servers the soak starts",
        ),
        (["--affinity", "--storm", "10"], "--affinity is for the soak, not --storm"),
    ],
)
def test_bad_flags_are_refused_with_a_reason(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["soak", *argv]) == 2
    assert said in capsys.readouterr().err


def test_a_negative_count_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["soak", "--kills", "-1"])
    assert exited.value.code == 2
    assert "must be 0 or more, got -1" in capsys.readouterr().err


def test_a_target_that_does_not_answer_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    argv = ["--target", url, "--kills", "0", "--terms", "0", "--redis-restarts", "0"]
    assert main(["soak", *argv, "--redis-stops", "0", "--duration", "1"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"tictactoe soak: error: /readyz not 200 within 10 s: {url}"]
