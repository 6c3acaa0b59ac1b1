"""``tictactoe serve``'s own supervision of its workers (server.launch.workers), on real
processes: the exit status of every stop, the boot timeout, a worker killed or hung, the
workers of a supervisor killed with SIGKILL, SIGHUP's rolling restart, a taken port, and
logs that stay JSON to the last line. Every stop path (SIGINT, SIGTERM, a drain, after a
rolling restart, after a killed worker's replacement) leaves nothing leaked: no
semaphore reported by the resource tracker, no ``ResourceWarning`` (shown: ``WARNINGS``)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import psutil
import pytest

from tests.support.server_process import ROOT, Fleet, ServerProcess
from tests.support.waiting import eventually_sync

# default tier: its waits for a worker's cleanup ran out beside the slow tier's soaks
pytestmark = pytest.mark.redis

WARNINGS = {"PYTHONWARNINGS": "default::ResourceWarning"}
"""Shown, for the tests to see any: Python hides ResourceWarnings by default."""


def assert_nothing_leaked(log: str) -> None:
    assert "leaked" not in log and "ResourceWarning" not in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]


def workers_of(server: ServerProcess) -> list[psutil.Process]:
    """The supervisor's worker processes (its spawned children, not multiprocessing's
    resource tracker)."""
    children = psutil.Process(server.process.pid).children()
    found = []
    for child in children:
        try:
            if "spawn_main" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.NoSuchProcess:
            continue
    return found


def ready(server: ServerProcess) -> None:
    """Until ``/readyz`` answers 200: two workers spawned on a loaded 2-core host can take
    longer than the fixtures' usual bound."""
    eventually_sync(
        lambda: server.alive and httpx.get(f"{server.url}/readyz", timeout=5).status_code == 200,
        f"{server} ready",
        timeout=120,
        ignoring=(httpx.HTTPError,),
    )


def stop_with(server: ServerProcess, sig: signal.Signals) -> int:
    server.process.send_signal(sig)
    return server.process.wait(timeout=60)


@pytest.mark.parametrize(
    ("workers", "sig", "drain", "status"),
    [
        ("1", signal.SIGINT, "0", 130),
        ("1", signal.SIGTERM, "0", 143),
        ("1", signal.SIGTERM, "1", 143),
        ("2", signal.SIGTERM, "1", 143),
    ],
    ids=["1-sigint", "1-sigterm", "1-drain", "2-drain"],
)  # two workers stopped by SIGINT and SIGTERM without a drain: the JSON logs' test below
def test_a_clean_stop_exits_with_the_signal_s_status_and_leaks_nothing(
    fleet: Fleet, redis_url: str, workers: str, sig: signal.Signals, drain: str, status: int
) -> None:
    server = fleet.launch(
        "--workers", workers, "--drain-period", drain, store_url=redis_url, env=WARNINGS
    )
    ready(server)
    assert stop_with(server, sig) == status, server.log_tail()
    assert_nothing_leaked(server.log)


def test_json_logs_stay_json_to_the_last_line_and_nothing_leaks(
    fleet: Fleet, redis_url: str
) -> None:
    """Two workers, each with its bot pool's processes starting, stopped by SIGINT (130)
    and by SIGTERM (143): every line of the run, the stop included, is a JSON object (but
    the URL printed on stdout); no semaphore is reported leaked, no ResourceWarning, no
    traceback, and the metrics directory is gone afterwards."""
    for sig, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        server = fleet.launch(
            "--workers", "2", "--log-format", "json", "--log-level", "info",
            store_url=redis_url, env=WARNINGS,
        )  # fmt: skip
        ready(server)
        multiproc = [p.environ().get("PROMETHEUS_MULTIPROC_DIR") for p in workers_of(server)]
        assert multiproc and multiproc[0]
        assert stop_with(server, sig) == status, server.log_tail()
        lines = [line for line in server.log.splitlines() if line.strip()]
        plain = [line for line in lines if not line.startswith("{")]
        assert all(line.startswith("tictactoe: serving on") for line in plain), plain
        records = [json.loads(line) for line in lines if line.startswith("{")]
        assert records[-1]["message"].startswith("Finished server process"), records[-1]
        assert_nothing_leaked(server.log)
        assert not os.path.exists(multiproc[0])  # removed once every worker was gone


def test_a_worker_that_does_not_start_in_time_is_killed_and_said_why(
    fleet: Fleet, redis_url: str
) -> None:
    server = fleet.launch(
        "--workers", "2", "--boot-timeout", "0.3", "--log-level", "info", store_url=redis_url
    )
    eventually_sync(
        lambda: "did not start within 0.3 s (--boot-timeout); starting another" in server.log,
        "a worker killed for its boot timeout",
        timeout=30,
    )
    killed = [line for line in server.log.splitlines() if "--boot-timeout" in line]
    assert all(" WARNING " in line for line in killed), killed
    # a crash loop backs off: 1 s, then 2 s before the next start in that slot
    eventually_sync(
        lambda: "starting another in 2 s (2 early deaths in a row)" in server.log,
        "the backoff doubled",
        timeout=60,
    )
    assert stop_with(server, signal.SIGINT) == 130


def test_a_patient_boot_timeout_lets_a_slow_host_start(fleet: Fleet, redis_url: str) -> None:
    server = fleet.launch("--workers", "2", "--boot-timeout", "120", store_url=redis_url)
    ready(server)
    assert "killed" not in server.log
    assert stop_with(server, signal.SIGINT) == 130


def test_a_dead_worker_is_replaced_with_a_warning(fleet: Fleet, redis_url: str) -> None:
    """... and its bot pool's semaphores are cleaned up as it dies, by its own resource
    tracker (server.bots.own_resource_tracker), so the supervisor's stop reports none."""
    server = fleet.launch(
        "--workers", "2", "--log-level", "info", store_url=redis_url, env=WARNINGS
    )
    ready(server)
    # both serving: one still booting may not have opened its bot pool, whose semaphores'
    # cleanup this test waits for (/readyz answers from the first worker ready)
    eventually_sync(lambda: server.log.count(" serves, ") >= 2, "both workers serving", timeout=120)
    eventually_sync(lambda: len(workers_of(server)) == 2 or None, "two workers")
    victim = workers_of(server)[0]
    victim.kill()
    eventually_sync(
        lambda: f"(pid {victim.pid}) was killed by SIGKILL; starting another" in server.log,
        "the death said",
        timeout=30,
    )
    (line,) = [line for line in server.log.splitlines() if "was killed by SIGKILL" in line]
    assert " WARNING " in line
    eventually_sync(
        lambda: (len(workers_of(server)) == 2 and " serves," in server.log.split(line)[-1]) or None,
        "a new worker serving",
        timeout=60,
    )
    # the dead worker's own resource tracker reports as it cleans up: a process of its own,
    # which on a busy host runs late (20 s was not always enough beside a soak)
    eventually_sync(
        lambda: "leaked semaphore" in server.log, "the dead worker's cleanup", timeout=60
    )
    before_stop = len(server.log)
    assert stop_with(server, signal.SIGTERM) == 143
    assert_nothing_leaked(server.log[before_stop:])


def test_a_hung_worker_is_killed_and_replaced(fleet: Fleet, redis_url: str) -> None:
    server = fleet.launch(
        "--workers", "2", "--stall-timeout", "3", "--log-level", "info", store_url=redis_url
    )
    ready(server)
    # both serving: a worker still booting is held to --boot-timeout, not to the heartbeat
    # (/readyz answers from the first worker ready while the other may still start)
    eventually_sync(lambda: server.log.count(" serves, ") >= 2, "both workers serving", timeout=120)
    eventually_sync(lambda: len(workers_of(server)) == 2 or None, "two workers")
    victim = workers_of(server)[0]
    victim.suspend()  # SIGSTOP: its event loop sends no heartbeat
    eventually_sync(
        lambda: f"(pid {victim.pid}) was killed: no heartbeat for 3 s" in server.log,
        "the hung worker killed",
        timeout=30,
    )
    assert not victim.is_running() or victim.status() == psutil.STATUS_ZOMBIE
    eventually_sync(lambda: len(workers_of(server)) == 2 or None, "a new worker", timeout=60)
    ready(server)
    assert stop_with(server, signal.SIGINT) == 130


def test_workers_stop_when_their_supervisor_is_killed(fleet: Fleet, redis_url: str) -> None:
    server = fleet.launch("--workers", "2", store_url=redis_url)
    ready(server)
    eventually_sync(lambda: len(workers_of(server)) == 2 or None, "two workers")
    orphans = workers_of(server)
    server.kill()  # kill -9: the supervisor shuts nothing down

    def gone() -> bool:
        return not any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in orphans)

    eventually_sync(gone, "the orphaned workers gone", timeout=40, ignoring=(psutil.Error,))
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{server.url}/healthz", timeout=5)


def test_sighup_restarts_the_workers_one_at_a_time(fleet: Fleet, redis_url: str) -> None:
    server = fleet.launch(
        "--workers", "2", "--log-level", "info", store_url=redis_url, env=WARNINGS
    )
    ready(server)
    eventually_sync(lambda: len(workers_of(server)) == 2 or None, "two workers")
    before = {p.pid for p in workers_of(server)}
    server.process.send_signal(signal.SIGHUP)
    refused = 0
    deadline = time.monotonic() + 90
    while "the last worker is replaced" not in server.log or len(workers_of(server)) != 2:
        assert time.monotonic() < deadline, server.log_tail(40)
        assert server.alive, server.log_tail(40)
        try:
            if httpx.get(f"{server.url}/healthz", timeout=10).status_code != 200:
                refused += 1
        except httpx.HTTPError:
            refused += 1
        time.sleep(0.05)
    after = {p.pid for p in workers_of(server)}
    assert not before & after and len(after) == 2
    assert refused == 0  # served all along: one old worker at least, or its replacement
    ready(server)
    assert stop_with(server, signal.SIGINT) == 130
    assert_nothing_leaked(server.log)  # the old workers' stops, and the last one


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_port_in_use_exits_3_in_one_line(redis_url: str, workers: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [
                sys.executable, "-m", "cli", "serve", "--port", str(port), "--workers", workers,
                "--redis-url", redis_url, "--log-level", "warning",
            ],
            check=False, capture_output=True, text=True, timeout=60, cwd=ROOT,
        )  # fmt: skip
    assert result.returncode == 3, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and "address already in use" in errors[0].lower(), errors


def test_sighup_is_refused_clearly_by_a_single_worker(fleet: Fleet, redis_url: str) -> None:
    server = fleet.launch(store_url=redis_url)
    ready(server)
    server.process.send_signal(signal.SIGHUP)
    eventually_sync(lambda: "SIGHUP ignored" in server.log, "the refusal said")
    assert httpx.get(f"{server.url}/healthz", timeout=10).status_code == 200
    assert stop_with(server, signal.SIGINT) == 130


def test_a_stop_while_the_workers_start_is_quiet(fleet: Fleet, redis_url: str) -> None:
    """Ctrl-C while the workers are still importing and building the app: a clean exit,
    no traceback, JSON to the end."""
    server = fleet.launch(
        "--workers", "2", "--log-format", "json", "--log-level", "info", store_url=redis_url
    )
    eventually_sync(lambda: "starting 2 workers" in server.log, "the supervisor started")
    eventually_sync(lambda: len(workers_of(server)) == 2 or None, "two workers spawned")
    assert stop_with(server, signal.SIGINT) == 130
    assert "Traceback" not in server.log and "KeyboardInterrupt" not in server.log, server.log
    lines = [line for line in server.log.splitlines() if line.strip()]
    assert all(line.startswith(("{", "tictactoe: serving on")) for line in lines), lines
