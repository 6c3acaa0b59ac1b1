"""One soak game (bench.soak.game) on a real server: a game that runs out of time is
``stuck`` with where it stopped and each player's last messages, which tell an event the
opponent never heard from an answer the mover never got."""

from __future__ import annotations

import re

from bench.soak.game import GameLog, play_game
from bench.soak.tally import Tally, Targets
from tests.support.live_server import LiveServer


async def test_a_game_out_of_time_says_where_each_player_was(server: LiveServer) -> None:
    log = GameLog(1)
    targets = Targets(lambda: [server.url])
    # 25 moves at 0.3 s on average each cannot finish within 1 s
    await play_game(log, targets, Tally(), spectators=0, think=0.3, timeout=1.0)
    assert log.outcome == "stuck" and log.reason is not None
    assert "not finished within 1 s, stopped during move" in log.reason
    players = log.reason.split("; the players' last messages: ", 1)[1].split(" || ")
    assert [trail.split(" at version ", 1)[0] for trail in players] == ["Xena", "Otto"]
    assert all("welcome" in trail for trail in players)  # each one's join, at least
    # each entry timed from the soak's start, as the faults are: "0.4s < 41235#017 welcome"
    entries = players[0].split(": ", 1)[1].split(" | ")
    assert all(re.fullmatch(r"\d+\.\ds [<>x!] .+", entry) for entry in entries), entries
