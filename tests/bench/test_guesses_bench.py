"""The guesses benchmark (bench.guesses) runs end to end on a small crowd, on the players'
server and on a server of its own: both phases are measured with their moves, the crowd's
guesses are sent and splits come back, each process's CPU is metered per phase, and the
ratio is the two p99s'; bad arguments are refused."""

from __future__ import annotations

import argparse

import pytest

from bench.guesses import main, measure


@pytest.mark.slow
@pytest.mark.parametrize("crowd", ["same", "apart"])
def test_the_guesses_bench_measures_both_phases(crowd: str) -> None:
    args = argparse.Namespace(
        spectators=8, moves=4, rounds=1, think=0.2, config="redis", crowd=crowd, ratio=1.1
    )
    found = measure(args)
    assert found["plain"]["moves"] == 4 and found["guessing"]["moves"] == 4
    assert found["crowd_on"] == crowd
    counts = found["crowd"]
    assert counts["joined"] == 8
    # at most one a spectator a move seen while guessing: the 4 moves of the guessing phase,
    # and the plain phase's last one when its event reaches the crowd's process after the
    # flag has turned (the crowd runs in its own process, a beat behind on a busy machine)
    assert 0 < counts["guesses"] <= 8 * (4 + 1)
    assert counts["refused"] <= counts["guesses"]  # late ones are stale on a busy machine
    assert counts["splits"] > 0
    counted = counts["guesses"] - counts["refused"]
    assert found["counted_share"] == round(counted / (8 * 4), 3)
    roles = {"players_server", "crowd", "players"} | (
        {"crowd_server"} if crowd == "apart" else set()
    )
    for phase in ("plain", "guessing"):  # each process's CPU, per second of the phase
        assert set(found["cpu_per_s"][phase]) == roles
        assert all(spent >= 0 for spent in found["cpu_per_s"][phase].values())
    plain, guessing = found["plain"]["p99_ms"], found["guessing"]["p99_ms"]
    assert found["p99_ratio"] == round(guessing / plain, 3)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--spectators", "0"])
    assert exited.value.code == 2
