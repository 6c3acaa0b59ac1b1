"""The engine's commands load the engine alone: ``tictactoe solve``, ``perft`` and
``analyze`` never import the web server, the rooms, the bench or their libraries (what
made a 3×3 solve take a second to start; docs/performance.md gives the start-up time)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cli

ROOT = Path(__file__).resolve().parents[2]
SERVER_SIDE = {"server", "rooms", "bench", "starlette", "uvicorn", "redis", "websockets", "httpx"}
PROBE = """
import contextlib, io, json, sys
import cli
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = cli.main(sys.argv[1:])
print(json.dumps({"code": code, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def loaded(*argv: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], cwd=ROOT, capture_output=True, text=True, check=True
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


@pytest.mark.process
@pytest.mark.parametrize(
    "argv",
    [
        ("solve", "--rows", "3", "--cols", "3", "--k", "3"),
        ("perft", "--rows", "3", "--cols", "3", "--k", "3", "--depth", "2"),
        ("analyze", "--rows", "3", "--cols", "3", "--k", "3", "--json"),
    ],
    ids=lambda argv: argv[0],
)
def test_an_engine_command_imports_no_server_side_module(argv: tuple[str, ...]) -> None:
    run = loaded(*argv)
    assert run["code"] == 0 and run["out"], run
    modules = run["modules"]
    assert isinstance(modules, list)
    tops = {name.split(".")[0] for name in modules}
    assert not tops & SERVER_SIDE, sorted(tops & SERVER_SIDE)
    assert "cli.serve" not in modules and "cli.bench" not in modules


@pytest.mark.process
def test_help_still_lists_every_command() -> None:
    from cli import COMMANDS

    done = subprocess.run(
        [sys.executable, "-m", "cli", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and all(name in done.stdout for name in COMMANDS)


def test_ctrl_c_while_a_command_still_imports_ends_it_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C in the first moments of ``tictactoe serve`` (its module still importing the
    web server) is an exit with 130, as later, not a KeyboardInterrupt traceback."""

    def interrupted(only: str | None = None) -> None:
        raise KeyboardInterrupt  # as if in the middle of importing cli.serve

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["serve", "--port", "0"]) == 130
    assert "Traceback" not in capsys.readouterr().err
