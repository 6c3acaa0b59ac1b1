"""The soak's scan of the server logs (bench.soak.logs): tracebacks, ERROR lines and warnings
fail the run with an example each; a leak warning is a problem after a clean stop and
expected after kill -9."""

from __future__ import annotations

from bench.soak import render_table, scan_text
from tests.bench.soak_games import exit_status, game_log, played, report_of

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
    report = report_of(game_log(1, *played(25)), logs=scan)
    assert exit_status(report) == (8, ["server_logs"])
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
    assert report_of(game_log(1, *played(25)), logs=killed)["ok"]
