"""A worker imports the push sender's HTTP stack (aiohttp, pywebpush) only when it sends its
first push: about a fifth of a worker's start-up imports, which most workers never use."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
import server.app
print(json.dumps({name: name in sys.modules for name in ("aiohttp", "pywebpush")}))
"""


@pytest.mark.process
def test_the_server_starts_without_the_push_sender_s_http_stack() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(done.stdout.splitlines()[-1]) == {"aiohttp": False, "pywebpush": False}
