"""The reconnect storm: N clients on one of two servers, that server killed, all resume.

Rooms of two players and ``spectators`` spectators are created on server A; the clients,
spread over ``procs`` processes (``spawn``, like bench.load: one asyncio loop holds a few
hundred sockets well, not thousands), join on A, X having played a first move. Once every
process says its clients are in, A gets ``kill -9``. Each client notices its connection
drop and joins again on B with its seat token and ``last_version``; the resume time is from
the kill to that ``welcome`` (``time.monotonic()``, one clock for the machine). The report
gives how many resumed within the bound and the resume time p50, p99 and max.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from .client import Client
from .game import RULES, http_call
from .processes import RedisNode, ServerNode, SoakError
from .tally import Tally, Targets, percentile

__all__ = ["StormOptions", "render_storm", "run_storm"]

PER_PROC = 500
"""Clients per process when ``procs`` is not given."""
JOINING = 50
"""Joins in flight at once per process while the clients come in."""
SETUP_TIMEOUT = 300.0


@dataclass(frozen=True, slots=True)
class StormOptions:
    clients: int = 2000
    spectators: int = 6
    """Spectators per room (with its two players)."""
    procs: int | None = None
    resume_timeout: float = 60.0
    """Seconds after the kill by which every client must have resumed."""
    p99_target: float = 5.0
    """The resume time's p99 must be at most this (seconds), or the storm failed."""
    quiet: bool = False


@dataclass(frozen=True, slots=True)
class _Share:
    first: str
    second: str
    rooms: list[tuple[str, int]]
    """Each room of this process and how many spectators it joins there."""
    resume_timeout: float


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def process_cpu(pid: int | None) -> float:
    """CPU seconds (user and system) process ``pid`` has used so far; 0 when unknown."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def _storm_child(share: _Share, pipe: Connection) -> dict[str, Any]:
    seated = asyncio.Event()
    # Clients join on the first server; once all are in, any new connection goes to the
    # second (as a load balancer would, once the first stops answering).
    targets = Targets(lambda: [share.second] if seated.is_set() else [share.first])
    tally = Tally()
    clients: list[Client] = []
    gate = asyncio.Semaphore(JOINING)

    async def seat(room_id: str, spectators: int) -> None:
        async with gate:
            x = Client(room_id, "player", "Xena", targets, tally)
            o = Client(room_id, "player", "Otto", targets, tally)
            clients.extend((x, o))
            await x.join(expect_mark="X")
            await o.join(expect_mark="O")
            await x.seen(o.version or 0)
            await x.play(1, 1, "X00")
            for index in range(spectators):
                watcher = Client(room_id, "spectator", f"watcher{index}", targets, tally)
                clients.append(watcher)
                await watcher.join()

    await asyncio.wait_for(
        asyncio.gather(*(seat(room_id, count) for room_id, count in share.rooms)), SETUP_TIMEOUT
    )
    seated.set()
    pipe.send(("ready", len(clients)))
    loop = asyncio.get_running_loop()
    if not await loop.run_in_executor(None, pipe.poll, SETUP_TIMEOUT):
        raise SoakError("no kill instant from the parent")
    kill_at = float(pipe.recv())
    cpu_at_kill = _own_cpu()
    unavailable_before = sum(tally.unavailable.values())
    deadline = kill_at + share.resume_timeout
    while time.monotonic() < deadline and not all(c.rejoined_at for c in clients):
        await asyncio.sleep(0.05)
    back = [c for c in clients if c.rejoined_at]
    result = {
        "noticed": [c.dropped_at[0] - kill_at for c in clients if c.dropped_at],
        "clients": len(clients),
        "resumed": [c.rejoined_at[0] - kill_at for c in back],
        # The welcome of the resume is the client's second (the first was before the kill).
        "connected": [c.welcomed_on[1] - kill_at for c in back],
        "answered": [c.rejoined_at[0] - c.welcomed_on[1] for c in back],
        "handshakes": sum(1 for c in clients for t in c.handshakes if t >= kill_at),
        "unavailable": sum(tally.unavailable.values()) - unavailable_before,
        "cpu": _own_cpu() - cpu_at_kill,
        "failures": [c.failure for c in clients if c.failure][:5],
        # What a few clients that did not come back sent and received last (a stall's why).
        "stalled": [
            f"{c.role} {c.name} of {c.room_id}: " + " | ".join(c.trail)
            for c in clients
            if not c.rejoined_at
        ][:3],
    }
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    return result


def _child_main(share: _Share, pipe: Connection) -> None:
    _raise_fd_limit()
    try:
        result = asyncio.run(_storm_child(share, pipe))
    except BaseException as exc:  # the parent reports it; a child must always answer
        pipe.send(("error", f"{type(exc).__name__}: {exc}"))
        raise
    pipe.send(("done", result))


def _receive(pipe: Connection, kind: str, timeout: float) -> Any:
    if not pipe.poll(timeout):
        raise SoakError(f"a storm process did not send {kind!r} within {timeout:g} s")
    try:
        got, payload = pipe.recv()
    except EOFError:
        raise SoakError(f"a storm process died before sending {kind!r}") from None
    if got != kind:
        raise SoakError(f"a storm process failed: {payload}")
    return payload


def _plan(options: StormOptions) -> tuple[int, list[int]]:
    """Rooms, and each room's spectators (the remainder spread over the first rooms)."""
    size = 2 + options.spectators
    rooms = max(1, options.clients // size)
    extra = max(0, options.clients - rooms * size)
    counts = [options.spectators + (1 if i < extra % rooms else 0) for i in range(rooms)]
    counts = [c + extra // rooms for c in counts]
    return rooms, counts


def run_storm(options: StormOptions) -> dict[str, Any]:
    """Run the storm; its report (``report["ok"]``: every client resumed in time)."""
    directory = Path(tempfile.mkdtemp(prefix="tictactoe-storm-"))
    redis_node = RedisNode(directory / "redis")
    servers: list[ServerNode] = []
    children: list[tuple[Any, Connection]] = []
    ok = False
    try:
        redis_node.start()
        servers = [ServerNode(directory / "servers", redis_node.url) for _ in range(2)]
        for server in servers:
            server.launch()
        for server in servers:
            server.wait_ready()
        first, second = servers
        rooms, counts = _plan(options)
        procs = options.procs or max(1, -(-options.clients // PER_PROC))
        procs = min(procs, rooms)
        only_first = Targets(lambda: [first.url], random.Random(1))

        async def create() -> list[str]:
            gate = asyncio.Semaphore(16)

            async def one() -> str:
                async with gate:
                    made = await http_call(only_first, "POST", "/api/rooms", {"rules": RULES}, 201)
                    return str(made["room_id"])

            return list(await asyncio.gather(*(one() for _ in range(rooms))))

        room_ids = asyncio.run(asyncio.wait_for(create(), SETUP_TIMEOUT))
        if not options.quiet:
            print(
                f"tictactoe soak: storm: {options.clients} clients in {rooms} rooms on "
                f"{first.url}, {procs} client processes",
                file=sys.stderr,
                flush=True,
            )
        context = multiprocessing.get_context("spawn")
        for index in range(procs):
            mine = list(zip(room_ids, counts, strict=True))[index::procs]
            share = _Share(first.url, second.url, mine, options.resume_timeout)
            parent_end, child_end = context.Pipe()
            process = context.Process(
                target=_child_main, args=(share, child_end), daemon=True, name=f"storm-{index}"
            )
            process.start()
            child_end.close()
            children.append((process, parent_end))
        connected = sum(int(_receive(pipe, "ready", SETUP_TIMEOUT + 30)) for _, pipe in children)
        if not options.quiet:
            print(
                f"tictactoe soak: storm: {connected} clients connected; kill -9 of {first.url}",
                file=sys.stderr,
                flush=True,
            )
        survivor = second.process.pid if second.process is not None else None
        redis_pid = redis_node.process.pid if redis_node.process is not None else None
        cpu_before = (process_cpu(survivor), process_cpu(redis_pid))
        kill_at = time.monotonic()
        first.kill()
        for _, pipe in children:
            pipe.send(kill_at)
        results = [_receive(pipe, "done", options.resume_timeout + 60) for _, pipe in children]
        cpu_after = (process_cpu(survivor), process_cpu(redis_pid))
        resumed = [s for r in results for s in r["resumed"]]
        noticed = [s for r in results for s in r["noticed"]]
        to_handshake = [s for r in results for s in r["connected"]]
        to_welcome = [s for r in results for s in r["answered"]]
        clients = sum(int(r["clients"]) for r in results)
        report: dict[str, Any] = {
            "options": asdict(options),
            "rooms": rooms,
            "procs": procs,
            "clients": clients,
            "resumed": len(resumed),
            "not_resumed": clients - len(resumed),
            "resume_p50": percentile(resumed, 0.5),
            "resume_p99": percentile(resumed, 0.99),
            "resume_max": percentile(resumed, 1.0),
            "noticed_p50": percentile(noticed, 0.5),
            "noticed_max": percentile(noticed, 1.0),
            "connected_p50": percentile(to_handshake, 0.5),
            "connected_p99": percentile(to_handshake, 0.99),
            "answered_p50": percentile(to_welcome, 0.5),
            "answered_p99": percentile(to_welcome, 0.99),
            "handshakes": sum(int(r["handshakes"]) for r in results),
            "unavailable": sum(int(r["unavailable"]) for r in results),
            "cpu_server": cpu_after[0] - cpu_before[0],
            "cpu_redis": cpu_after[1] - cpu_before[1],
            "cpu_clients": sum(float(r["cpu"]) for r in results),
            "load": os.getloadavg()[0],
            "failures": [f for r in results for f in r["failures"]][:10],
            "stalled": [f for r in results for f in r["stalled"]][:5],
        }
        report["why"] = _verdict(report, options)
        ok = not report["why"]
        report["ok"] = ok
        report["logs"] = None if ok else str(directory)
        return report
    finally:
        for process, pipe in children:
            pipe.close()
            process.join(10)
            if process.is_alive():
                process.kill()
                process.join(5)
        for server in servers:
            server.stop()
        redis_node.stop()
        if ok:
            shutil.rmtree(directory, ignore_errors=True)


def _verdict(report: dict[str, Any], options: StormOptions) -> list[str]:
    """Why the storm failed (empty: it passed)."""
    why = []
    if report["clients"] != options.clients:
        why.append(f"{report['clients']} of {options.clients} clients connected before the kill")
    if report["not_resumed"]:
        why.append(
            f"{report['not_resumed']} of {report['clients']} clients not resumed within "
            f"{options.resume_timeout:g} s"
        )
    p99 = report["resume_p99"]
    if p99 is not None and p99 > options.p99_target:
        why.append(f"resume p99 {p99:.3f} s is above the target of {options.p99_target:g} s")
    return why


def render_storm(report: dict[str, Any]) -> str:
    def seconds(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    lines = [
        "| clients | rooms | client processes | resumed | not resumed | resume p50 s | "
        "p99 s | max s | unavailable |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {report['clients']} | {report['rooms']} | {report['procs']} | {report['resumed']} | "
        f"{report['not_resumed']} | {seconds(report['resume_p50'])} | "
        f"{seconds(report['resume_p99'])} | {seconds(report['resume_max'])} | "
        f"{report['unavailable']} |",
        "",
        "resume time: from the kill -9 to the welcome on the other server; of it, to the "
        f"handshake: p50 {seconds(report['connected_p50'])} s, p99 "
        f"{seconds(report['connected_p99'])} s; from the handshake to the welcome: p50 "
        f"{seconds(report['answered_p50'])} s, p99 {seconds(report['answered_p99'])} s",
        f"{report['handshakes']} handshakes after the kill; CPU seconds from the kill to the "
        f"last resume: surviving server {report['cpu_server']:.1f}, Redis "
        f"{report['cpu_redis']:.1f}, client processes {report['cpu_clients']:.1f}; load "
        f"average {report['load']:.2f}",
    ]
    lines.extend(f"client failure: {failure}" for failure in report["failures"])
    lines.extend(f"not resumed: {stalled}" for stalled in report["stalled"])
    lines.extend(f"FAILED: {why}" for why in report["why"])
    if report["ok"]:
        lines.append(f"OK: every client resumed, p99 within {report['options']['p99_target']:g} s")
    return "\n".join(lines)
