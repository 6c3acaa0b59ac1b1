"""``tictactoe play`` run as its own process, as a person runs it: stdin, stdout and stderr
piped, optionally with its identity file kept under a home of the test's own."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from tests.support.ws_client import WAIT

__all__ = ["finish", "start_cli"]

ROOT = Path(__file__).resolve().parents[2]


async def start_cli(*flags: str, home: Path | None = None) -> asyncio.subprocess.Process:
    """``tictactoe play FLAGS``; with ``home``, its identity lives under it (one a player)."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(home)} if home is not None else None
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "cli",
        "play",
        *flags,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
        env=env,
    )


async def finish(
    process: asyncio.subprocess.Process, script: str = "", *, timeout: float = WAIT * 2
) -> tuple[int, str, str]:
    """Send ``script`` as the whole input; the exit status, stdout and stderr."""
    out, err = await asyncio.wait_for(process.communicate(script.encode()), timeout)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()
