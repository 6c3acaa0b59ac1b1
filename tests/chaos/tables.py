"""Whole games played by ``Peer``s across server processes, and the audit after them.

A ``Table`` is one room with its X and O players and its spectators, each on a server of
the test's choosing. ``play`` plays a fixed script (X and O take turns; each move is made
against the version the mover has seen, and retried with its ``move_id`` through errors
and dropped connections). ``audit`` then reads the room's whole history from the store's
event log, through a spectator joining with ``last_version`` 0, and checks that:

* the history has every version from 1 once, and its moves are the script, in order;
* every acknowledged move is in the history exactly once, at the acknowledged version,
  and nothing was played that was not acknowledged;
* every participant saw only those events, each version once and in order, with no
  breach of the protocol's promises (``Peer.problems``), and reached the final version.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from tests.chaos.peers import Chooser, Peer
from tests.support.server_process import Endpoint, create_room, snapshot

__all__ = ["SCRIPT", "RULES", "Table", "audit", "open_table", "play"]

RULES: dict[str, Any] = {"rows": 5, "cols": 5, "k": 5}
SCRIPT = [(row, (row * 2 + step) % 5) for row in range(5) for step in range(5)]
"""25 moves on 5x5 with k=5 that fill the board with no five in a line: every move is
played and the game ends at the last one, a draw. (Each row shifts the columns by two,
so no line, column or diagonal is all X or all O.)"""


@dataclass(slots=True)
class Table:
    room_id: str
    x: Peer
    o: Peer
    watchers: list[Peer]
    start: int  # the version at which the last seat was taken: the game began
    script: list[tuple[int, int]] = field(default_factory=lambda: list(SCRIPT))
    played: int = 0

    @property
    def peers(self) -> list[Peer]:
        return [self.x, self.o, *self.watchers]


async def open_table(
    create_on: Endpoint,
    x_on: Endpoint,
    o_on: Endpoint,
    watch_on: list[Endpoint],
    choose: Chooser,
    *,
    room_id: str | None = None,
    rules: dict[str, Any] | None = None,
    watch_path: bool = False,
) -> Table:
    """A room (new unless ``room_id`` is given) with its spectators joined first (on the
    spectators' path with ``watch_path``), then X, then O, each on its own server."""
    if room_id is None:
        room_id = await create_room(create_on, rules or RULES, public=True)
    watchers = [
        Peer(f"watcher{i}", "spectator", room_id, choose, watch_path=watch_path)
        for i in range(len(watch_on))
    ]
    for watcher, server in zip(watchers, watch_on, strict=True):
        await watcher.join(server)
    x, o = Peer("Xena", "player", room_id, choose), Peer("Otto", "player", room_id, choose)
    assert (await x.join(x_on))["mark"] == "X"
    welcome = await o.join(o_on)
    assert welcome["mark"] == "O" and welcome["state"]["status"] == "playing"
    return Table(room_id, x, o, watchers, welcome["version"])


async def play(table: Table, *, pace: float = 0.0) -> None:
    """Play the script to the end; every move must be acknowledged."""
    last = table.start
    for index, (row, col) in enumerate(table.script):
        mover = table.x if index % 2 == 0 else table.o
        await mover.seen(last)  # the opponent's move has reached the mover: its turn
        reply = await mover.move(row, col, f"{mover.mark}{index:02d}")
        assert reply["type"] == "move_ok", f"{mover.name} move {index}: {reply}"
        last = reply["version"]
        table.played = index + 1
        if pace:
            await asyncio.sleep(pace)  # the test: moves spread over the fault, as people play


async def audit(table: Table, server: Endpoint) -> dict[str, Any]:
    """Check the finished room against its log and every participant; the final snapshot."""
    final = await snapshot(server, table.room_id)
    assert final["status"] == "finished", final
    assert [(m["row"], m["col"]) for m in final["moves"]] == table.script
    for peer in table.peers:
        await peer.seen(final["version"])
    auditor = Peer("auditor", "spectator", table.room_id, lambda avoid: server)
    welcome = await auditor.join(server, since=0)
    await auditor.close()
    history = {event["version"]: event for event in welcome["missed"]}
    assert sorted(history) == list(range(1, welcome["version"] + 1))
    assert auditor.problems == []
    moves = [history[v] for v in sorted(history) if history[v]["type"] == "moved"]
    assert [(m["row"], m["col"]) for m in moves] == table.script
    assert [m["mark"] for m in moves] == ["XO"[i % 2] for i in range(len(table.script))]
    acked = {**table.x.acked, **table.o.acked}
    assert len(acked) == len(table.script)  # every move acknowledged, none twice
    for move_id, ok in acked.items():
        row, col = table.script[int(move_id[1:])]
        landed = history[ok["version"]]
        assert (landed["type"], landed["mark"], landed["row"], landed["col"]) == (
            "moved",
            move_id[0],
            row,
            col,
        ), (move_id, ok, landed)
    for peer in table.peers:
        assert peer.problems == [], peer.problems
        for version, event in peer.events.items():
            if version <= welcome["version"]:  # later ones: the auditor leaving, etc.
                assert history[version] == event, (peer.name, version, event)
        # Everyone was there before the first move, so everyone got every move: live, or
        # listed as missed when resuming (the log reaches back over a whole game).
        seen_moves = [e for _, e in sorted(peer.events.items()) if e["type"] == "moved"]
        assert seen_moves == moves, (peer.name, len(seen_moves))
    return final
