"""The players' rounds: two seats in the benchmark's process, alternating moves, each
``--think`` seconds after the opponent's, with the latency of each move from the mover's
send to the opponent's ``moved`` (this process's clock); rounds alternate a phase with the
crowd only watching and one with it guessing, each phase's CPU metered per process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import time
from typing import Any

import psutil
from websockets.asyncio.client import ClientConnection

from client import move_message
from client.aio import open_joined

from .room import RULES, WAIT, socket_url

__all__ = ["Meter", "rounds"]


async def _recv(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
    return message


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
    ws, welcome = await open_joined(socket_url(url, room_id, watch=False), join, max_queue=None)
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


class Meter:
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


async def rounds(
    url: str, room_id: str, args: argparse.Namespace, guessing: Any, meter: Meter
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
