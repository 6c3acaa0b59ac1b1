"""The flash-crowd benchmark (bench.flash_crowd) runs end to end against a server it
started: every spectator of a small crowd arriving at once is let in, and the player sees
the few ``spectators`` events of their group commits (rooms.common.gathering), not one each."""

from __future__ import annotations

from bench.flash_crowd import measure
from bench.load import CONFIGS, launch


def test_the_flash_crowd_bench_lets_everyone_in_with_a_few_events() -> None:
    launched = launch("server", CONFIGS["memory"], None)
    try:
        found = measure(launched.url, spectators=60)
    finally:
        launched.stop()
    assert found["welcomed"] == 60 and found["failed_to_join"] == 0
    assert found["dropped_after_joining"] == 0
    assert found["last_count"] == 60
    assert 1 <= found["spectators_events_to_the_player"] < 60 // 4
    assert found["frames_to_the_player"] >= found["spectators_events_to_the_player"]
    assert found["seconds_until_all_in"] > 0
