"""The probe's Redis count (bench.load.redis_probe) keeps what no move asks for out of the
round trips per move: a pooled connection's set-up and the tournament director's scan of its
index, which run on the store's clients whenever they are due."""

from __future__ import annotations

from typing import Any

from bench.load.redis_probe import _END, _START, _round_trips


def _line(command: str, port: int, client_type: str = "tcp") -> dict[str, Any]:
    return {
        "command": command,
        "client_type": client_type,
        "client_address": "127.0.0.1",
        "client_port": str(port),
    }


def test_set_up_and_the_director_s_scan_are_background_not_a_move_s() -> None:
    names = {"127.0.0.1:1": "ttt-store", "127.0.0.1:2": "ttt-bus", "127.0.0.1:3": ""}
    lines = [
        _line("ZRANGE ttt:tournaments 0 -1", 1),  # before the start marker: not counted
        _line(f"ECHO {_START}", 9),
        _line("EVALSHA abc 3 ttt:{room:x} ...", 1),
        _line("PUBLISH ttt:room:x ...", 0, client_type="lua"),
        _line("HELLO 3", 3),  # a connection the pool just opened
        _line("ZRANGE ttt:tournaments 0 -1", 3),
        _line("ZRANGE ttt:lobby 0 99 WITHSCORES", 1),  # not the director's: counted
        _line("EVALSHA abc 3 ttt:{room:x} ...", 3),
        _line(f"ECHO {_END}", 9),
        _line("EVALSHA abc 3 ttt:{room:x} ...", 1),  # after the end marker: not counted
    ]
    counted = _round_trips(lines, names)
    assert counted["by_command"] == {"evalsha": 2, "zrange": 1}
    assert counted["background"] == {"hello": 1, "zrange": 1}
    assert counted["inside_scripts"] == {"publish": 1}


def test_another_room_s_work_is_background_not_a_move_s() -> None:
    """An earlier game's spectators' guesses, read 0.2 s after its last move (late on a busy
    host), fall in the probe's window: they concern another room than the one the probe's
    commits touch."""
    names = {"127.0.0.1:1": "ttt-store"}
    lines = [
        _line(f"ECHO {_START}", 9),
        _line("EVALSHA abc 3 ttt:{probed}:room ttt:{probed}:log ttt:epoch 7 ...", 1),
        _line("HMGET ttt:{earlier}:room v d l", 1),  # the earlier room's load
        _line("HVALS ttt:{earlier}:guess:1:8", 1),  # its guesses' split
        _line("HVALS ttt:{probed}:guess:1:3", 1),  # the probe's own room: counted
        _line("EVALSHA abc 3 ttt:{probed}:room ttt:{probed}:log ttt:epoch 8 ...", 1),
        _line(f"ECHO {_END}", 9),
    ]
    counted = _round_trips(lines, names)
    assert counted["by_command"] == {"evalsha": 2, "hvals": 1}
    assert counted["background"] == {"hmget": 1, "hvals": 1}


def test_without_a_commit_no_room_is_set_apart() -> None:
    names = {"127.0.0.1:1": "ttt-store"}
    lines = [
        _line(f"ECHO {_START}", 9),
        _line("HVALS ttt:{r}:guess:1:8", 1),
        _line(f"ECHO {_END}", 9),
    ]
    assert _round_trips(lines, names)["by_command"] == {"hvals": 1}
