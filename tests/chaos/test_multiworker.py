"""Many workers, one Redis: three real ``tictactoe serve`` processes on three ports.

* Players and spectators spread over the three processes play full games at once; every
  client sees the same versions in the same order (tables.audit).
* Two processes receive conflicting moves for the same version at the same moment,
  hundreds of times: exactly one lands each time, the other is ``stale_version``.
* ``kill -9`` of a process mid-game: its clients join again on another process with
  their tokens and ``last_version``, retry what was unanswered with the same move_id, and
  no acknowledged move is lost or applied twice.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.chaos.peers import Peer, chooser
from tests.chaos.tables import Table, audit, open_table, play
from tests.support.redis_server import RedisServer
from tests.support.server_process import Fleet, ServerProcess, create_room, snapshot
from tests.support.waiting import eventually

pytestmark = [pytest.mark.redis, pytest.mark.slow]  # a chaos suite: the slow tier


def spread(servers: list[ServerProcess], index: int) -> tuple[ServerProcess, ...]:
    """Table ``index``: X, O and two spectators, each pair on different processes."""
    n = len(servers)
    return servers[index % n], servers[(index + 1) % n], servers[(index + 2) % n]


async def test_players_and_spectators_on_three_processes_see_the_same_games(
    aof_server: RedisServer, fleet: Fleet
) -> None:
    servers = fleet.start(aof_server.url, 3)
    choose = chooser(servers)
    tables = []
    for index in range(6):
        x_on, o_on, w_on = spread(servers, index)
        tables.append(await open_table(x_on, x_on, o_on, [w_on, x_on, o_on], choose))
    await asyncio.wait_for(asyncio.gather(*(play(table) for table in tables)), 120)
    for index, table in enumerate(tables):
        await audit(table, servers[index % 3])
        for peer in table.peers:
            assert peer.reconnects == 0 and peer.errors == []
            await peer.close()


ROUNDS = 60  # per room and player: 120 races a room


async def race_room(room_id: str, tabs: dict[str, tuple[Peer, Peer]]) -> int:
    """Each turn, the mover's two tabs (on two processes) send different moves made against
    the same version at once; exactly one must land. X keeps to the top-left 10x10 and O
    to the bottom-right 9x9 of a 19x19 board with k=19, so nobody ever wins."""
    regions = {
        "X": [(r, c) for r in range(10) for c in range(10)],
        "O": [(r, c) for r in range(10, 19) for c in range(10, 19)],
    }
    # The game began when the last seat was taken; every tab has to know that version.
    version = max(tab.version or 0 for pair in tabs.values() for tab in pair)
    races = 0
    for turn in range(2 * ROUNDS):
        mark = "XO"[turn % 2]
        first, second = tabs[mark]
        await asyncio.gather(first.seen(version), second.seen(version))
        cells = regions[mark][:2]
        replies = await asyncio.gather(
            first.move(*cells[0], f"{mark}a{turn}", version=version, retry=False),
            second.move(*cells[1], f"{mark}b{turn}", version=version, retry=False),
        )
        kinds = sorted(reply["type"] for reply in replies)
        assert kinds == ["error", "move_ok"], (room_id, turn, replies)
        loser = next(reply for reply in replies if reply["type"] == "error")
        assert loser["code"] == "stale_version", loser
        winner = 0 if replies[0]["type"] == "move_ok" else 1
        regions[mark].remove(cells[winner])
        version = replies[winner]["version"]
        races += 1
    return races


async def test_conflicting_moves_on_two_processes_exactly_one_lands(
    aof_server: RedisServer, fleet: Fleet
) -> None:
    servers = fleet.start(aof_server.url, 3)
    choose = chooser(servers)
    rooms: dict[str, dict[str, tuple[Peer, Peer]]] = {}
    for index in range(3):
        room_id = await create_room(servers[0], {"rows": 19, "cols": 19, "k": 19}, public=False)
        seats: dict[str, tuple[Peer, Peer]] = {}
        for mark, offset in (("X", 0), ("O", 1)):
            tab = Peer(f"{mark}-tab1", "player", room_id, choose)
            assert (await tab.join(servers[(index + offset) % 3]))["mark"] == mark
            twin = Peer(f"{mark}-tab2", "player", room_id, choose)
            twin.token = tab.token  # the same seat in a second tab, on another process
            assert (await twin.join(servers[(index + offset + 1) % 3]))["mark"] == mark
            seats[mark] = (tab, twin)
        rooms[room_id] = seats
    counts = await asyncio.wait_for(
        asyncio.gather(*(race_room(room_id, seats) for room_id, seats in rooms.items())), 150
    )
    assert counts == [2 * ROUNDS] * 3  # 360 races
    for room_id, seats in rooms.items():
        final = await snapshot(servers[2], room_id)
        assert final["ply"] == 2 * ROUNDS and final["status"] == "playing"
        landed = [ok for pair in seats.values() for tab in pair for ok in tab.acked.values()]
        assert len(landed) == 2 * ROUNDS  # one acknowledgement per turn, no more
        assert len({ok["version"] for ok in landed}) == 2 * ROUNDS
        for tab in (tab for pair in seats.values() for tab in pair):
            assert tab.problems == [] and tab.reconnects == 0
            await tab.close()


async def test_kill_9_of_a_process_mid_game_loses_and_doubles_nothing(
    aof_server: RedisServer, fleet: Fleet
) -> None:
    servers = fleet.start(aof_server.url, 3)
    victim = servers[0]
    choose = chooser(servers)
    tables: list[Table] = []
    for index in range(3):
        x_on, o_on, w_on = spread(servers, index)
        tables.append(await open_table(o_on, x_on, o_on, [w_on, x_on], choose))
    games = [asyncio.create_task(play(table, pace=0.03)) for table in tables]
    await eventually(
        lambda: sum(table.played for table in tables) >= 15 or all(g.done() for g in games),
        "the games well under way",
        interval=0.01,
    )
    assert all(table.played < len(table.script) for table in tables), "kill came too late"
    victim.kill()
    await asyncio.wait_for(asyncio.gather(*games), 120)
    survivors = [server for server in servers if server.alive]
    assert victim not in survivors and len(survivors) == 2
    for table in tables:
        await audit(table, survivors[0])
    # Everyone who was on the killed process came back through another one; nobody else
    # noticed anything.
    for peer in (peer for table in tables for peer in table.peers):
        if peer.joined_on[0] is victim:
            assert peer.reconnects >= 1 and victim not in peer.joined_on[1:], peer.name
        else:
            assert peer.reconnects == 0 and victim not in peer.joined_on, peer.name
        await peer.close()
    hit = [peer for table in tables for peer in table.peers if peer.joined_on[0] is victim]
    assert len(hit) == 4  # X of table 0, O of table 2, a spectator of tables 0 and 1
