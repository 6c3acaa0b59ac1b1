"""Perft: the exhaustive count of games, results and positions, in process and from the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core import Rules
from core.perft import PerftResult, perft
from tests.core.engine_helpers import completed_by, every_window_dead, naive_legal

TICTACTOE = Path(sys.executable).with_name("tictactoe")
PUBLISHED_3X3 = {
    "games": 255168,
    "wins": {"X": 131184, "O": 77904},
    "draws": 46080,
    "positions": 5478,
}


def test_3x3_matches_the_published_figures() -> None:
    result = perft(Rules())
    assert result.to_dict() == PUBLISHED_3X3
    assert result.games == sum(result.wins.values()) + result.draws
    assert result.leaves == 0 and result.losses == {}


def naive_perft(rules: Rules, depth: int | None = None) -> PerftResult:
    """The same count without the engine: own legal moves, own line scan, own turn order."""
    result = PerftResult(wins=dict.fromkeys(rules.marks, 0))
    seen: set[tuple[int, ...]] = set()
    cells = [0] * rules.cells

    def walk(ply: int) -> None:
        seen.add(tuple(cells))
        lines = completed_by(rules, cells)
        if lines:
            (code, _), *_ = lines
            completer = rules.marks[code - 1]
            result.games += 1
            if not rules.misere:
                result.wins[completer] += 1
            elif rules.players == 2:
                result.wins[rules.marks[2 - code]] += 1
            else:
                result.losses[completer] = result.losses.get(completer, 0) + 1
            return
        if 0 not in cells or (rules.early_draw and every_window_dead(rules, cells)):
            result.games += 1
            result.draws += 1
            return
        if depth is not None and ply == depth:
            result.leaves += 1
            return
        for index in naive_legal(rules, cells):
            cells[index] = ply % rules.players + 1
            walk(ply + 1)
            cells[index] = 0

    walk(0)
    result.positions = len(seen)
    return result


@pytest.mark.parametrize(
    ("rules", "depth"),
    [
        (Rules(misere=True), 6),
        (Rules(early_draw=True), 6),
        (Rules(rows=3, cols=4, k=3, gravity=True), 7),
        (Rules(rows=2, cols=2, layers=2, k=2), None),
        (Rules(rows=2, cols=2, layers=3, k=2, gravity=True), None),
        (Rules(rows=3, cols=3, k=2, players=3), None),
        (Rules(rows=3, cols=3, k=2, players=3, misere=True), None),
        (Rules(rows=2, cols=4, k=2, players=4), None),
        (Rules(rows=4, cols=4, k=3), 4),
    ],
    ids=[
        "misere",
        "early-draw",
        "gravity-3x4",
        "cube-2",
        "cube-gravity",
        "3-players",
        "3-players-misere",
        "4-players",
        "4x4-k3",
    ],
)
def test_perft_agrees_with_a_naive_walk(rules: Rules, depth: int | None) -> None:
    assert perft(rules, depth) == naive_perft(rules, depth)


def test_depth_limits_the_walk() -> None:
    assert perft(Rules(), 0).to_dict() == {
        "games": 0,
        "wins": {"X": 0, "O": 0},
        "draws": 0,
        "positions": 1,
        "unfinished": 1,
    }
    two = perft(Rules(), 2)
    assert (two.games, two.leaves, two.positions) == (0, 72, 1 + 9 + 72)
    five = perft(Rules(), 5)
    assert five.wins == {"X": 1440, "O": 0}  # X can first win on move 5: 8 lines × 3! × 5·4·3


def test_three_player_misere_reports_losses() -> None:
    data = perft(Rules(rows=3, cols=3, k=2, players=3, misere=True)).to_dict()
    assert set(data["losses"]) <= {"X", "O", "A"} and sum(data["losses"].values()) > 0
    assert data["wins"] == {"X": 0, "O": 0, "A": 0}


# -- the CLI, as a subprocess -----------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(TICTACTOE), "perft", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.process
def test_cli_prints_the_3x3_figures_as_json() -> None:
    done = _cli("--rows", "3", "--cols", "3")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == PUBLISHED_3X3
    assert done.stdout.count("\n") == 1  # one JSON object, one line


@pytest.mark.process
def test_cli_passes_the_rules_and_depth() -> None:
    done = _cli("--rows", "6", "--cols", "7", "--k", "4", "--gravity", "--depth", "3")
    assert done.returncode == 0, done.stderr
    rules = Rules(rows=6, cols=7, k=4, gravity=True)
    assert json.loads(done.stdout) == perft(rules, 3).to_dict()
    assert json.loads(done.stdout)["unfinished"] == 7**3
    misere = _cli("--misere", "--depth", "6")
    assert json.loads(misere.stdout) == perft(Rules(misere=True), 6).to_dict()


@pytest.mark.process
@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--k", "4"], "--k:"),
        (["--rows", "0"], "--rows:"),
        (["--players", "9"], "--players:"),
        (["--depth", "-1"], "--depth"),
    ],
)
def test_cli_refuses_bad_flags_with_the_flag_named(args: list[str], complaint: str) -> None:
    done = _cli(*args)
    assert done.returncode != 0
    assert complaint in done.stderr
    assert done.stdout == ""
