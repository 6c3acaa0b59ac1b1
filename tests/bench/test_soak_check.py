"""The soak's checker and verdict, on synthetic games: a lost, a doubled and a phantom move
are each caught, fail the report and make ``tictactoe soak`` exit non-zero; a clean game
passes. And the command's refusals: bad flags, a target that does not answer. No test here
starts a process (the real soak is tests/bench/test_soak_run.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import bench.soak
from bench.load.launch import free_port
from bench.soak import Ack, build_report, judge, render_table
from bench.soak.check import Cell
from bench.soak.game import SCRIPT, GameLog
from bench.soak.placement import placement
from bench.soak.tally import Tally, percentile
from cli import main

ASKED = {"server_kill": 1, "redis_kill": 0}


def _played(moves: int) -> tuple[list[Ack], list[Cell]]:
    """The first ``moves`` of the script, each acknowledged once, and the matching record."""
    acks, record = [], []
    for index, (row, col) in enumerate(SCRIPT[:moves]):
        cell = ("XO"[index % 2], row, col)
        acks.append(Ack(f"{cell[0]}{index:02d}", cell, 3 + index, duplicate=False))
        record.append(cell)
    return acks, record


def _game(number: int, acks: list[Ack], record: list[Cell], **kwargs: Any) -> GameLog:
    log = GameLog(number, room_id=f"room{number}", outcome="finished", **kwargs)
    log.acks, log.record = acks, record
    return log


def _report(*games: GameLog) -> dict[str, Any]:
    return build_report(
        list(games), Tally(), {"server_kill": 1}, asked=ASKED, seconds=1.0, options={}
    )


def test_a_clean_game_passes() -> None:
    acks, record = _played(25)
    retry = Ack("X04", acks[4].cell, acks[4].version, duplicate=True)  # a retry answered
    verdict = judge([*acks, retry], {}, record)
    assert verdict.clean and verdict.acknowledged == 25
    report = _report(_game(1, [*acks, retry], record, faults={"server_kill"}))
    assert report["ok"] and report["failures"] == []
    kill, none, total = report["rows"]
    assert (kill["fault"], kill["games"], kill["acked"], kill["injected"]) == (
        "server_kill",
        1,
        25,
        1,
    )
    assert (none["fault"], none["games"]) == ("none", 0)
    assert (total["lost"], total["doubled"], total["stuck"]) == (0, 0, 0)


def test_a_lost_move_is_caught() -> None:
    acks, record = _played(9)
    del record[4]  # acknowledged, yet not in the store
    verdict = judge(acks, {}, record)
    assert verdict.lost == ("X04",) and not verdict.doubled and not verdict.clean
    report = _report(_game(1, acks, record, faults={"server_kill"}))
    assert not report["ok"]
    assert report["rows"][0]["lost"] == 1 and report["rows"][-1]["lost"] == 1
    assert report["failures"][0]["lost"] == ["X04"]
    assert "FAILED" in render_table(report)


def test_a_doubled_move_is_caught_in_the_record_and_by_its_versions() -> None:
    acks, record = _played(9)
    twice = [*record, record[2]]  # the store holds one move two times
    assert judge(acks, {}, twice).doubled == ("X02",)
    # The same move_id acknowledged as new at two versions: applied twice.
    again = Ack("O03", acks[3].cell, acks[3].version + 5, duplicate=False)
    assert judge([*acks, again], {}, record).doubled == ("O03",)
    report = _report(_game(1, acks, twice))
    assert not report["ok"] and report["rows"][-1]["doubled"] == 1
    assert report["rows"][-2]["fault"] == "none" and report["rows"][-2]["doubled"] == 1


def test_a_refused_move_that_landed_is_caught() -> None:
    acks, record = _played(9)
    refused = {"X08": acks[8].cell}  # the mover was told "no", the store says "yes"
    verdict = judge(acks[:8], refused, record)
    assert verdict.phantom == ("X08",) and not verdict.clean
    assert not _report(_game(1, acks[:8], record, refused=refused))["ok"]


def test_stuck_and_behind_games_fail_orphans_are_counted_apart() -> None:
    acks, record = _played(6)
    stuck = _game(1, acks, record, faults={"server_kill"})
    stuck.outcome, stuck.reason = "stuck", "not finished within 90 s, at move 6"
    behind = _game(2, *_played(25))
    behind.behind = 1
    orphan = GameLog(3, room_id="room3", outcome="orphaned", reason="orphaned at join: room_full")
    report = _report(stuck, behind, orphan, _game(4, *_played(25)))
    assert not report["ok"]
    total = report["rows"][-1]
    assert (total["games"], total["stuck"], total["orphaned"], total["lost"]) == (3, 2, 1, 0)
    assert [f["game"] for f in report["failures"]] == [1, 2]
    assert report["orphaned"][0]["room_id"] == "room3"


def test_an_orphaned_seat_alone_fails_the_soak() -> None:
    # Players send a join_key: a seat lost with its welcome is taken again, so an orphan is
    # a server bug, not a fault's expected cost.
    orphan = GameLog(1, room_id="room1", outcome="orphaned", reason="orphaned at join: room_full")
    report = _report(orphan, _game(2, *_played(25)))
    assert not report["ok"] and report["failures"] == []
    assert "FAILED game 1 room room1: orphaned at join" in render_table(report)


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


@pytest.mark.parametrize(
    ("games", "code"),
    [((_game(1, *_played(25)),), 0), ((_game(1, _played(9)[0], _played(9)[1][:-1]),), 1)],
)
def test_the_command_exits_non_zero_on_a_loss(
    games: tuple[GameLog, ...],
    code: int,
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
    assert written["ok"] is (code == 0)
    assert ("FAILED" in capsys.readouterr().out) is (code == 1)


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
