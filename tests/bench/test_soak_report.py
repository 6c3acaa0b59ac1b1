"""The soak's report (bench.soak.report) beyond the moves: stuck, behind and orphaned games,
faults not recovered or not injected, where the sockets were placed, and the percentiles of
its tallies."""

from __future__ import annotations

from bench.soak import build_report, render_table
from bench.soak.game import GameLog
from bench.soak.placement import placement
from bench.soak.tally import Tally, percentile
from tests.bench.soak_games import exit_status, game_log, played, report_of


def test_stuck_and_behind_games_fail_orphans_are_counted_apart() -> None:
    acks, record = played(6)
    stuck = game_log(1, acks, record, faults={"server_kill"})
    stuck.outcome, stuck.reason = "stuck", "not finished within 90 s, at move 6"
    behind = game_log(2, *played(25))
    behind.behind = 1
    orphan = GameLog(3, room_id="room3", outcome="orphaned", reason="orphaned at join: room_full")
    report = report_of(stuck, behind, orphan, game_log(4, *played(25)))
    assert exit_status(report) == (10, ["stuck", "orphaned"])
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
    report = report_of(orphan, game_log(2, *played(25)))
    assert exit_status(report) == (11, ["orphaned"]) and report["failures"] == []
    assert "FAILED game 1 room room1: orphaned at join" in render_table(report)


def test_faults_not_recovered_and_not_injected_are_their_own_checks() -> None:
    report = build_report(
        [game_log(1, *played(25))],
        Tally(),
        {"server_kill": 1},
        asked={"server_kill": 4},
        seconds=1.0,
        options={},
        not_recovered=["fault 2 (server_kill): not ready within 180 s"],
    )
    assert exit_status(report) == (9, ["recovery", "not_injected"])
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
        log = game_log(len(games) + 1, *played(25))
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


def test_a_failure_comes_with_the_faults_timed_as_the_trails_are() -> None:
    tally = Tally()
    began = tally.started + 63.04
    tally.injected("cluster_kill", began, 9.24)
    behind = game_log(1, *played(25), faults={"cluster_kill"})
    behind.behind = 1
    behind.behind_trails = ["watcher0 at version 20 of 27: 70.1s < 59587#012 moved 20"]
    report = build_report(
        [behind], tally, {"cluster_kill": 1}, asked={"cluster_kill": 1}, seconds=1.0, options={}
    )
    assert report["timeline"] == [{"fault": "cluster_kill", "at": 63.0, "recovered_s": 9.2}]
    table = render_table(report)
    assert "faults (seconds since the start, as in the trails): 63.0s cluster_kill" in table
    assert "(recovered in 9.2 s)" in table
    quiet = build_report([game_log(2, *played(25))], tally, {}, asked={}, seconds=1.0, options={})
    assert "faults (seconds" not in render_table(quiet)  # said only to explain a failure
