"""``tictactoe play --connect URL/t/ID`` in a Swiss and a knockout: two terminal entrants
(each with an identity file of its own, playing with ``--bot``) and the creator's server bots
play every round to the end; each terminal names the rounds as they open (a knockout's by
name), says when it sits a round out or is knocked out, and prints the final standings the
server has."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_connect_tournament import play_through
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.process  # every test here runs the terminal client


async def test_two_terminals_play_a_swiss_to_its_end(server: LiveServer, tmp_path: Path) -> None:
    body = {"kind": "swiss", "rounds": 3, "max_players": 5}
    answer, outs = await play_through(server, tmp_path, body, bots=3)
    byes = [r["bye"] for r in answer["schedule"]]
    ids = {e["name"]: e["id"] for e in answer["entrants"]}
    for name, out in zip(("Ada", "Term"), outs, strict=True):
        assert "The tournament is under way: 3 rounds." in out
        for number in (1, 2, 3):
            assert f"Round {number} of 3." in out
        assert out.count("You sit this round out (a bye).") == byes.count(ids[name])


async def test_two_terminals_play_a_knockout_to_its_end(server: LiveServer, tmp_path: Path) -> None:
    body = {"kind": "knockout", "draw_rule": "replay", "max_players": 4}
    answer, outs = await play_through(server, tmp_path, body, bots=2)
    bracket = answer["bracket"]
    ids = {e["name"]: e["id"] for e in answer["entrants"]}
    semis = bracket[0]["matches"]
    for name, out in zip(("Ada", "Term"), outs, strict=True):
        assert "Semi-finals (round 1 of 2)." in out
        lost = next(m for m in semis if ids[name] in m["players"])["winner"] != ids[name]
        assert "Final (round 2 of 2)." in out
        assert ("You are out, beaten in the semi-finals" in out) == lost
