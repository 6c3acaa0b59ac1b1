"""What spectators' guesses cost the players: the opponent's move latency in one room watched
by a guessing crowd, against the same room with the same crowd not guessing, as a ratio.

    .venv/bin/python -m bench.guesses [--spectators 1000] [--moves 40] [--rounds 3]
        [--think 1.0] [--config redis] [--crowd same|apart] [--ratio 1.10]

One server (``--config``: ``redis`` one worker, ``redis2`` two, on a private redis-server),
one room (19×19, a line of 19: games last, a full board is a rematch). The two players run
in this process; ``--spectators`` WebSockets on the spectators' path run in a child process,
on the players' server or (``--crowd apart``) on a second one-worker server on the same
Redis, as a balancer sending the spectators' path elsewhere would have it. The crowd's
client parses only the moves it guesses at: it shares the host's cores with the server.
The players alternate moves, each ``--think`` seconds after the opponent's; the latency of a
move is from the mover's send to the opponent's ``moved``, both on this process's clock.
Rounds alternate (so drift falls on both): ``--moves`` moves with the crowd only watching,
then ``--moves`` with every spectator guessing each move once, at a random moment of the
think time, a random empty cell. The server runs without the admission guard
(``TICTACTOE_ADMISSION_LAG=0`` unless set), as in bench.big_room. Reports each phase's
p50/p99 and the ratio of the p99s, with the guesses sent and the splits received, and the
CPU each process spent per second of each phase (``cpu_per_s``: the players' server, the
crowd's server when apart, the crowd's client, the players' process); exits 1 when the ratio
is above ``--ratio``, or when under half the guesses the crowd could make counted
(``counted_share``: a crowd starved of CPU guesses late or not at all, and then the run does
not measure a guessing crowd).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import multiprocessing.synchronize
import os
import queue
import random
import statistics
import sys
import time
from typing import Any

import psutil
from websockets.asyncio.client import ClientConnection

from client import move_message
from client.aio import open_joined

from .load.http import HttpPool
from .load.launch import CONFIGS, Launched, RedisProcess, launch

__all__ = ["main", "measure"]

RULES = {"rows": 19, "cols": 19, "k": 19}
WAIT = 120.0
RATIO = 1.10
MIN_SHARE = 0.5
"""A run passes only when at least this share of the crowd's possible guesses counted."""
ADMISSION = "TICTACTOE_ADMISSION_LAG"
JOIN_WAIT = 600.0


_TYPED = '{"type":"'
_GUESSES, _ERROR = '{"type":"guesses"', '{"type":"error"'
_MOVED, _NEW_GAME = '{"type":"moved"', '{"type":"new_game"'


def _ws(url: str, room_id: str, *, watch: bool) -> str:
    return url.replace("http", "ws", 1) + f"/ws/{room_id}" + ("/watch" if watch else "")


async def _recv(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
    return message


# -- the crowd (a child process) ------------------------------------------------------------


class _Board:
    """The cells taken in the current game, as the crowd's first connection sees them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.taken: set[tuple[int, int]] = set()
        self.version = 0

    def empty_cell(self) -> tuple[int, int]:
        while True:
            cell = (random.randrange(self.size), random.randrange(self.size))
            if cell not in self.taken:
                return cell


async def _spectator(
    url: str, room_id: str, *, board: _Board, guessing: Any, think: float,
    counts: dict[str, int], first: bool,
) -> None:  # fmt: skip
    ws, answer = await _joined(_ws(url, room_id, watch=True), counts)
    async with ws:
        if answer["type"] != "welcome":
            raise RuntimeError(f"a spectator's join was refused: {answer}")
        counts["joined"] += 1
        pending: list[asyncio.Task[None]] = []  # the guess of the move under way
        try:
            await _watch(
                ws, board=board, guessing=guessing, think=think, counts=counts, first=first,
                pending=pending,
            )  # fmt: skip
        finally:  # stopped: the guess under way goes too, not on a closed socket
            for task in pending:
                task.cancel()


async def _watch(
    ws: ClientConnection, *, board: _Board, guessing: Any, think: float,
    counts: dict[str, int], first: bool, pending: list[asyncio.Task[None]],
) -> None:  # fmt: skip
    """A spectator's messages until its socket closes: a guess of each move while guessing."""
    async for text in ws:
        # Only a move is parsed: a thousand spectators' clients here share the players'
        # and the server's cores, which real spectators' never do; the rest is told
        # apart by how the server's compact text starts (its type is encoded first).
        if isinstance(text, bytes) or not text.startswith(_TYPED):
            continue
        if text.startswith(_GUESSES):
            counts["splits"] += 1
            continue
        if text.startswith(_ERROR):
            counts["refused"] += 1
            continue
        if not text.startswith(_MOVED) and not (first and text.startswith(_NEW_GAME)):
            continue
        message = json.loads(text)
        kind = message.get("type")
        if kind == "moved":
            if first:
                board.taken.add((message["row"], message["col"]))
                board.version = message["version"]
            if guessing.value and message.get("status") == "playing":
                for task in pending:
                    task.cancel()
                pending[:] = [
                    asyncio.create_task(_guess(ws, message["version"], board, think, counts))
                ]
        elif kind == "new_game":
            board.taken.clear()


async def _joined(url: str, counts: dict[str, int]) -> tuple[ClientConnection, dict[str, Any]]:
    """A spectator's socket and the answer to its join, tried again while a busy machine
    makes the handshake time out."""
    join = {"type": "join", "as": "spectator"}
    for _ in range(10):
        try:
            return await open_joined(url, join, answer_wait=WAIT, max_queue=None, open_timeout=WAIT)
        except (OSError, TimeoutError):
            counts["retried"] += 1
            await asyncio.sleep(1.0)
    raise RuntimeError(f"could not connect to {url}")


async def _guess(
    ws: ClientConnection, version: int, board: _Board, think: float, counts: dict[str, int]
) -> None:
    await asyncio.sleep(random.uniform(0, 0.8 * think))
    row, col = board.empty_cell()
    await ws.send(json.dumps({"type": "guess", "row": row, "col": col, "version": version}))
    counts["guesses"] += 1


def _crowd(
    url: str, room_id: str, spectators: int, think: float,
    signals: tuple[Any, multiprocessing.synchronize.Event, multiprocessing.synchronize.Event, Any],
) -> None:  # fmt: skip
    """The crowd's process; ``signals``: the guessing flag, ready, stop, and the results' queue."""
    guessing, ready, stop, out = signals

    async def run() -> None:
        board = _Board(RULES["rows"])
        counts = {"joined": 0, "guesses": 0, "splits": 0, "refused": 0, "retried": 0}
        tasks = []
        for i in range(spectators):
            tasks.append(asyncio.create_task(
                _spectator(
                    url, room_id, board=board, guessing=guessing, think=think, counts=counts,
                    first=i == 0,
                )
            ))  # fmt: skip
            if i % 50 == 49:
                await asyncio.sleep(0.05)  # a crowd arriving, not a flood
        while counts["joined"] < spectators and not stop.is_set():
            failed = [t for t in tasks if t.done()]
            if failed:  # a spectator could not join: say why, and stop
                out.put({**counts, "failed": repr(failed[0].exception())})
                return
            await asyncio.sleep(0.1)
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.1)
        out.put(counts)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())


# -- the players (this process) -------------------------------------------------------------


class _Player:
    def __init__(self, ws: ClientConnection, mark: str) -> None:
        self.ws = ws
        self.mark = mark
        self.version = 0
        self.taken: set[tuple[int, int]] = set()

    async def until(self, *kinds: str) -> dict[str, Any]:
        while True:
            message = await _recv(self.ws)
            if isinstance(message.get("version"), int):
                self.version = max(self.version, message["version"])
            if message["type"] == "error":
                raise RuntimeError(f"the server refused a player's message: {message}")
            if message["type"] in kinds:
                return message


async def _arrival(player: _Player) -> tuple[dict[str, Any], float]:
    """The next ``moved`` event ``player`` receives, and when (this process's clock)."""
    moved = await player.until("moved")
    return moved, time.perf_counter()


async def _seat(url: str, room_id: str) -> _Player:
    join = {"type": "join", "as": "player"}
    ws, welcome = await open_joined(_ws(url, room_id, watch=False), join, max_queue=None)
    if welcome["type"] != "welcome":
        raise RuntimeError(f"the server refused a player's join: {welcome}")
    player = _Player(ws, welcome["mark"])
    player.version = welcome["version"]
    return player


async def _play(
    players: dict[str, _Player], moves: int, think: float, turn: str
) -> tuple[list[float], str]:
    """``moves`` moves; the opponent's latency of each (seconds), and whose turn is next."""
    latencies: list[float] = []
    while len(latencies) < moves:
        mover = players[turn]
        other = next(p for p in players.values() if p is not mover)
        await asyncio.sleep(think)
        row, col = random.choice(
            [
                (r, c)
                for r in range(RULES["rows"])
                for c in range(RULES["cols"])
                if (r, c) not in mover.taken
            ]
        )
        sent = time.perf_counter()
        move_id = f"{mover.mark}{mover.version}"
        await mover.ws.send(json.dumps(move_message(move_id, mover.version, row, col)))
        arrivals = await asyncio.gather(_arrival(other), _arrival(mover))
        moved, arrived = arrivals[0]
        latencies.append(arrived - sent)
        for player in players.values():
            player.taken.add((row, col))
        if moved["status"] == "finished":  # a full board: the next game
            for player in players.values():
                await player.ws.send(json.dumps({"type": "rematch", "id": "r"}))
            new_games = [await p.until("new_game") for p in players.values()]
            marks = new_games[0]["marks"]
            players = {marks[p.mark]: p for p in players.values()}
            for player in players.values():
                player.mark, player.taken = marks[player.mark], set()
            turn = new_games[0]["turn"]
        else:
            turn = moved["turn"]
    return latencies, turn


def _summary(latencies: list[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    return {
        "moves": len(ordered),
        "p50_ms": round(1000 * statistics.median(ordered), 2),
        "p99_ms": round(1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2),
    }


class _Meter:
    """CPU seconds each process of the bench spent in each phase (psutil), per second of the
    phase: what the guesses cost the host beyond the players' worker, on a host whose cores
    the crowd's client shares."""

    def __init__(self, pids: dict[str, int]) -> None:
        self._processes = {role: psutil.Process(pid) for role, pid in pids.items()}
        self.spent: dict[str, dict[str, float]] = {"plain": {}, "guessing": {}}
        self.wall = {"plain": 0.0, "guessing": 0.0}

    def _now(self) -> dict[str, float]:
        found = {}
        for role, process in self._processes.items():
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                found[role] = times.user + times.system
        return found

    def start(self) -> tuple[float, dict[str, float]]:
        return time.perf_counter(), self._now()

    def add(self, phase: str, started: tuple[float, dict[str, float]]) -> None:
        self.wall[phase] += time.perf_counter() - started[0]
        for role, now in self._now().items():
            before = started[1].get(role, now)
            self.spent[phase][role] = self.spent[phase].get(role, 0.0) + now - before

    def report(self) -> dict[str, dict[str, float]]:
        """Each role's CPU seconds per second of each phase."""
        return {
            phase: {
                role: round(spent / self.wall[phase], 3) if self.wall[phase] else 0.0
                for role, spent in sorted(roles.items())
            }
            for phase, roles in self.spent.items()
        }


async def _rounds(
    url: str, room_id: str, args: argparse.Namespace, guessing: Any, meter: _Meter
) -> dict[str, Any]:
    first, second = await _seat(url, room_id), await _seat(url, room_id)
    players = {first.mark: first, second.mark: second}
    await first.until("player_joined")  # the second seat: both players at the same version
    plain: list[float] = []
    guessed: list[float] = []
    _, turn = await _play(players, 10, args.think, "X")  # warm up
    for _ in range(args.rounds):
        guessing.value = False
        started = meter.start()
        got, turn = await _play(players, args.moves, args.think, turn)
        meter.add("plain", started)
        plain += got
        guessing.value = True
        started = meter.start()
        got, turn = await _play(players, args.moves, args.think, turn)
        meter.add("guessing", started)
        guessed += got
    guessing.value = False
    for player in players.values():
        await player.ws.close()
    return {
        "plain": _summary(plain),
        "guessing": _summary(guessed),
        "cpu_per_s": meter.report(),
    }


async def _room(url: str) -> str:
    pool = HttpPool(url)
    try:
        return await pool.create_room(RULES)
    finally:
        await pool.close()


def measure(args: argparse.Namespace) -> dict[str, Any]:
    # a crowd joining on a busy machine would be turned away by the admission guard
    os.environ.setdefault(ADMISSION, "0")
    redis = RedisProcess().start()
    servers: list[Launched] = []
    try:
        servers.append(launch("server", CONFIGS[args.config], redis.url))
        if args.crowd == "apart":  # the spectators' path served elsewhere (deploy/haproxy.cfg)
            servers.append(launch("server", CONFIGS["redis"], redis.url))
        server, crowd_server = servers[0], servers[-1]
        room_id = asyncio.run(_room(server.url))
        ctx = multiprocessing.get_context("spawn")
        guessing, ready, stop, out = ctx.Value("b", False), ctx.Event(), ctx.Event(), ctx.Queue()
        signals = (guessing, ready, stop, out)
        crowd = ctx.Process(
            daemon=True,  # never outlives the bench
            target=_crowd,
            args=(crowd_server.url, room_id, args.spectators, args.think, signals),
        )
        crowd.start()
        try:
            deadline = time.monotonic() + JOIN_WAIT
            while not ready.wait(1.0):
                if not crowd.is_alive() or not out.empty() or time.monotonic() > deadline:
                    raise RuntimeError(f"the crowd did not join: {out.get(timeout=5)}")
            pids = {"players_server": server.process.pid, "crowd": int(crowd.pid or 0)}
            pids["players"] = os.getpid()
            if crowd_server is not server:
                pids["crowd_server"] = crowd_server.process.pid
            meter = _Meter(pids)
            result = asyncio.run(_rounds(server.url, room_id, args, guessing, meter))
        finally:
            stop.set()
            counts = _counts(out) if crowd.is_alive() else {}
            crowd.join(WAIT)
            if crowd.is_alive():
                crowd.kill()
    finally:
        for launched in servers:
            launched.stop()
        redis.stop()
    plain, guessed = result["plain"]["p99_ms"], result["guessing"]["p99_ms"]
    return {
        "spectators": args.spectators,
        "config": args.config,
        "crowd_on": args.crowd,
        "think_s": args.think,
        **result,
        "p99_ratio": round(guessed / plain, 3) if plain else None,
        "crowd": counts,
        "counted_share": _counted_share(counts, args.spectators * result["guessing"]["moves"]),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


def _counted_share(counts: dict[str, Any], most: int) -> float:
    """The guesses that counted (sent, not refused as stale) over one a spectator a guessed
    move: below ``MIN_SHARE`` the crowd (starved of CPU) did not guess as the goal says."""
    counted = counts.get("guesses", 0) - counts.get("refused", 0)
    return round(counted / most, 3) if most else 0.0


def _counts(out: Any) -> dict[str, Any]:
    """The crowd's counts, from its queue; none when it already said why it failed."""
    try:
        found: dict[str, Any] = out.get(timeout=WAIT)
    except queue.Empty:
        return {}
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.guesses", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=40, help="moves per phase of each round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--think", type=float, default=1.0, help="seconds before each move")
    parser.add_argument("--config", choices=["redis", "redis2"], default="redis")
    parser.add_argument(
        "--crowd",
        choices=["same", "apart"],
        default="same",
        help="the crowd on the players' server (same) or on a server of its own, one worker "
        "on the same Redis (apart), as deploy/haproxy.cfg's spectators' path allows",
    )
    parser.add_argument(
        "--ratio", type=float, default=RATIO, help="the highest p99 ratio that passes"
    )
    args = parser.parse_args(argv)
    if args.spectators < 1 or args.moves < 1 or args.rounds < 1 or args.think < 0:
        parser.error("--spectators, --moves and --rounds must be 1 or more, --think 0 or more")
    report = measure(args)
    print(json.dumps(report, indent=2))
    ratio, share = report["p99_ratio"], report["counted_share"]
    if share < MIN_SHARE:
        print(f"not a guessing crowd: {share:.0%} of its guesses counted", file=sys.stderr)
        return 1
    return 0 if ratio is not None and ratio <= args.ratio else 1


if __name__ == "__main__":
    sys.exit(main())
