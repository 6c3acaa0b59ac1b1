"""The bot pool's processes start, warmed, with the server (server.bots): the first bot move
of a room does not wait for a process to start and import the search code."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import psutil
import pytest
import websockets

from server.bots import BotPool
from tests.server.endless_warm_up import warm_up_forever
from tests.support.server_process import Fleet
from tests.support.waiting import eventually_sync


def _pool_processes(server_pid: int) -> list[psutil.Process]:
    """The bot processes of a server: the children of its multiprocessing fork server."""
    pool: list[psutil.Process] = []
    for child in psutil.Process(server_pid).children(recursive=True):
        if "multiprocessing.forkserver" in " ".join(child.cmdline()):
            pool.extend(child.children())
    return pool


@pytest.mark.process
async def test_the_bot_processes_start_with_the_server(fleet: Fleet) -> None:
    server = fleet.launch(env={"TICTACTOE_BOT_WORKERS": "2"})
    server.wait_ready()
    # No room, no bot move yet: the pool's processes run all the same.

    def both_started() -> list[psutil.Process] | None:
        found = _pool_processes(server.process.pid)
        return found if len(found) == 2 else None

    pool = eventually_sync(both_started, "two bot processes")
    assert all(process.is_running() for process in pool)
    body = {"rules": {}, "bot": "bot:medium", "bot_mark": "X"}
    async with httpx.AsyncClient() as http:
        response = await http.post(f"{server.url}/api/rooms", json=body, timeout=15)
    room_id = response.json()["room_id"]
    async with websockets.connect(server.ws(room_id)) as ws, asyncio.timeout(20):
        await ws.send(json.dumps({"type": "join", "as": "player", "name": "Ada"}))
        while True:  # the bot (X) moves first, in one of those processes
            message = json.loads(await ws.recv())
            if message["type"] == "moved" or message.get("state", {}).get("moves"):
                break
    assert {p.pid for p in _pool_processes(server.process.pid)} == {p.pid for p in pool}


@pytest.mark.process
async def test_the_bot_processes_end_when_the_server_is_killed(fleet: Fleet) -> None:
    server = fleet.launch()
    server.wait_ready()
    pool = eventually_sync(
        lambda: _pool_processes(server.process.pid) or None, "the bot processes started"
    )
    server.kill()  # kill -9: the server cannot shut its pool
    eventually_sync(lambda: all(_gone(p) for p in pool), "the bot processes ended")


def _gone(process: psutil.Process) -> bool:
    try:
        return not process.is_running() or process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


class _NoProcesses(ThreadPoolExecutor):
    """An executor that cannot start a process (fork refused, no file descriptors left)."""

    def submit(self, *args: object, **kwargs: object) -> Any:
        raise OSError("fork refused")


def test_a_pool_that_cannot_start_does_not_stop_the_server(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pool = BotPool("process", 2)
    monkeypatch.setattr(pool, "_open", _NoProcesses)
    pool.start()  # no exception: the server starts without its bots
    assert "the bot pool could not start: fork refused" in caplog.text
    assert pool._executor is None  # the first bot move opens it again


@pytest.mark.process  # the pool's own processes
def test_a_stop_ends_processes_still_warming_up(caplog: pytest.LogCaptureFixture) -> None:
    """On a busy host a warm-up takes seconds and cannot be interrupted: the stop ends the
    processes rather than waiting for it (one that never finishes here), and reports no
    failure of the pool for them."""
    earlier = {process.pid for process in _pool_processes(os.getpid())}  # other tests' pools

    def started() -> list[psutil.Process] | None:
        new = [p for p in _pool_processes(os.getpid()) if p.pid not in earlier]
        return new if len(new) == 2 else None

    pool = BotPool("process", 2, initializer=warm_up_forever)
    pool.start()
    processes = eventually_sync(started, "the two bot processes started")
    closing = threading.Thread(target=pool.close, kwargs={"wait": True})
    closing.start()
    closing.join(timeout=30)
    assert not closing.is_alive(), "the stop waited for a warm-up that never ends"
    assert all(_gone(process) for process in processes)
    assert "could not start" not in caplog.text
