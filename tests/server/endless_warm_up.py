"""A bot pool process's first job that never ends (a warm-up stuck on a busy host), for
tests/server/test_bot_pool.py: a module of its own, importable by the pool's processes."""

from __future__ import annotations

import time

from server.bots import warm_up


def warm_up_forever(server_pid: int) -> None:
    warm_up(server_pid)  # the watch on the server too: it ends with the test's process
    while True:
        time.sleep(60)
