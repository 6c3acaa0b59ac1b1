"""``tictactoe play --replay FILE``: stepping through a game record, scripted from stdin,
in process and as a real subprocess."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from cli.terminal.replay import run_replay
from core import MoveRequest, Rules
from rooms import Role, Room
from rooms.room import Join, PlayMove, current_record, format_record
from rooms.room.commands import Resign

ROOT = Path(__file__).resolve().parents[2]


def record_file(tmp_path: Path) -> Path:
    room = Room("replay01", Rules(), public=False, created=1_700_000_000.0)
    room.handle(Join("a", Role.PLAYER, "Ada"), 1_700_000_000.0)
    room.handle(Join("b", Role.PLAYER, "Grace"), 1_700_000_000.0)
    for i, (conn, row, col) in enumerate([("a", 1, 1), ("b", 0, 0), ("a", 2, 2)]):
        room.handle(
            PlayMove(conn, MoveRequest(col=col, row=row), room.version, f"m{i}"),
            1_700_000_001.0 + i,
        )
    room.handle(Resign("b"), 1_700_000_010.0)
    path = tmp_path / "game.txt"
    path.write_text(format_record(room.room_id, room.rules, current_record(room)))
    return path


def test_enter_steps_forward_b_back_q_quits(tmp_path: Path) -> None:
    out = io.StringIO()
    code = run_replay(
        str(record_file(tmp_path)), commands=io.StringIO("\n\nb\nx\n\n\n\nq\n\n"), out=out
    )
    text = out.getvalue()
    assert code == 0
    assert text.startswith("Game 1 in room replay01: 3×3 k=3; X Ada, O Grace.")
    steps = [line for line in text.splitlines() if line[:2] in {"1.", "2.", "3."}]
    assert steps == [
        "1. X plays (row 1, col 1) at 1.0 s.",
        "2. O plays (row 0, col 0) at 2.0 s.",
        "1. X plays (row 1, col 1) at 1.0 s.",
        "2. O plays (row 0, col 0) at 2.0 s.",
        "3. X plays (row 2, col 2) at 3.0 s.",
    ]
    assert "Unknown command 'x'." in text and "No more moves." in text
    assert "End: 1-0 (resignation)." in text
    assert text.count(" 1  . |[X]| .") == 2  # the board after move 1, shown twice


def test_bad_files_exit_1(tmp_path: Path) -> None:
    err = io.StringIO()
    assert run_replay(str(tmp_path / "missing.txt"), err=err) == 1
    assert "cannot read" in err.getvalue()
    bad = tmp_path / "bad.txt"
    bad.write_text("1. X r0c0\n2. O r0c0\n")
    err = io.StringIO()
    assert run_replay(str(bad), err=err) == 1
    assert "is not a game record" in err.getvalue() and "taken" in err.getvalue()


@pytest.mark.process
def test_the_command_replays_a_file(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "cli", "play", "--replay", str(path)],
        input="\n\n\n\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "3. X plays (row 2, col 2)" in done.stdout and "End: 1-0" in done.stdout
