"""The soak's checker (bench.soak.check) on crafted records: a missing, doubled, reordered,
phantom or wrong-version move, an unfinished or missing game are each caught with a message
of their own and fail the check that makes ``tictactoe soak`` exit with its own status; a
clean game passes, and the report says what was compared. No test here starts a process
(the real soak is tests/bench/test_soak_run.py)."""

from __future__ import annotations

from bench.soak import Ack, LogScan, StoredGame, judge, render_table
from tests.bench.soak_games import exit_status, game_log, played, report_of, stored


def test_a_clean_game_passes_and_the_report_says_what_was_compared() -> None:
    acks, record = played(25)
    retry = Ack("X04", acks[4].cell, acks[4].version, duplicate=True)  # a retry answered
    verdict = judge([*acks, retry], {}, record)
    assert verdict.clean and verdict.problems == ()
    assert (verdict.acknowledged, verdict.versions_compared) == (25, 25)
    report = report_of(
        game_log(1, [*acks, retry], record, faults={"server_kill"}), logs=LogScan(2, 40)
    )
    assert report["ok"] and report["failures"] == [] and exit_status(report) == (0, [])
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
    acks, record = played(25)
    record = stored([c for c in record.cells if c != acks[4].cell], dict(record.versions or {}))
    verdict = judge(acks, {}, record)
    assert verdict.lost == ("X04",) and not verdict.doubled and not verdict.reordered
    assert verdict.problems == (
        "lost: X04 X r0c4 was acknowledged at version 7 but the record does not hold it",
    )
    report = report_of(game_log(1, acks, record, faults={"server_kill"}))
    assert exit_status(report) == (3, ["lost"])
    assert report["rows"][0]["lost"] == 1 and report["rows"][-1]["lost"] == 1
    assert report["failures"][0]["problems"] == list(verdict.problems)
    table = render_table(report)
    assert "  lost: X04 X r0c4 was acknowledged at version 7" in table
    assert "FAILED check lost (exit 3): 1 acknowledged moves the stored record does not hold" in (
        table
    )
    assert table.endswith("FAILED: lost (exit 3)")


def test_a_doubled_move_is_caught_in_the_record_and_by_its_versions() -> None:
    acks, record = played(9)
    twice = stored([*record.cells, record.cells[2]], dict(record.versions or {}), False)
    verdict = judge(acks, {}, twice)
    assert verdict.doubled == ("X02",)
    assert "doubled: X02 X r0c2 is in the record 2 times" in verdict.problems
    # The same move_id acknowledged as new at two versions: applied twice.
    again = Ack("O03", acks[3].cell, acks[3].version + 5, duplicate=False)
    assert judge([*acks, again], {}, record).problems[0] == (
        "doubled: O03 was acknowledged at versions 6, 11"
    )
    acks25, record25 = played(25)
    twice25 = stored([*record25.cells, record25.cells[2]], dict(record25.versions or {}))
    report = report_of(game_log(1, acks25, twice25))
    assert exit_status(report) == (4, ["doubled"]) and report["rows"][-1]["doubled"] == 1
    assert report["rows"][-2]["fault"] == "none" and report["rows"][-2]["doubled"] == 1


def test_a_reordered_move_is_caught() -> None:
    acks, record = played(25)
    cells = list(record.cells)
    cells[5], cells[7] = cells[7], cells[5]  # two of O's moves swapped in the store
    swapped = stored(cells, dict(record.versions or {}))
    verdict = judge(acks, {}, swapped)
    assert verdict.reordered == ("O05", "O07") and not verdict.lost and not verdict.doubled
    assert verdict.problems == (
        "reordered: O05 was the 6th move acknowledged but is ply 8 of the record",
        "reordered: O07 was the 8th move acknowledged but is ply 6 of the record",
    )
    report = report_of(game_log(1, acks, swapped))
    assert exit_status(report) == (6, ["reordered"]) and report["rows"][-1]["reordered"] == 2


def test_a_wrong_version_is_caught_in_the_store_and_between_acks() -> None:
    acks, record = played(25)
    versions = dict(record.versions or {})
    versions["X10"] = 99  # the store says the move landed at another version
    del versions["O11"]  # ... or holds no move of that move_id
    verdict = judge(acks, {}, stored(list(record.cells), versions))
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
    report = report_of(game_log(1, acks, stored(list(record.cells), versions)))
    assert exit_status(report) == (7, ["version"]) and report["rows"][-1]["wrong_version"] == 2


def test_a_refused_move_that_landed_is_a_phantom() -> None:
    acks, record = played(25)
    refused = {"X24": acks[24].cell}  # the mover was told "no", the store says "yes"
    verdict = judge(acks[:24], refused, record)
    assert verdict.phantom == ("X24",)
    assert verdict.problems == ("phantom: X24 X r4c2 was refused for good but the record holds it",)
    report = report_of(game_log(1, acks[:24], record, refused=refused))
    assert exit_status(report) == (5, ["phantom"])


def test_an_unfinished_game_in_the_store_is_stuck() -> None:
    acks, record = played(25)
    playing = StoredGame(record.cells[:-1], record.versions, "playing")
    verdict = judge(acks[:-1], {}, playing)
    assert verdict.unfinished and verdict.problems == (
        "unfinished: the stored game is playing after 24 moves",
    )
    report = report_of(game_log(1, acks[:-1], playing))
    assert exit_status(report) == (10, ["stuck"]) and report["rows"][-1]["stuck"] == 1


def test_a_record_missing_from_the_store_loses_every_acknowledged_move() -> None:
    acks, _ = played(25)
    report = report_of(game_log(1, acks, None))  # type: ignore[arg-type]
    assert exit_status(report) == (3, ["lost", "stuck"]) and report["rows"][-1]["lost"] == 25
    assert report["failures"][0]["problems"][-1] == (
        "unfinished: the stored game is missing from the store after 0 moves"
    )


def test_snapshot_records_compare_order_but_no_stored_versions() -> None:
    acks, record = played(25)
    snapshot = StoredGame(record.cells, None, "finished")
    verdict = judge(acks, {}, snapshot)
    assert verdict.clean and verdict.versions_compared == 0
