"""Where the soak's sockets landed, and how many rooms had their players apart.

Pure: from each game's ``seated`` (the server of every ``welcome`` and its time) and
``apart``, and the time of each server's last restart. Behind the balancer
(``--affinity``) a room's players land together on the server its id hashes to; a room
is **split** when a move of it was acknowledged while its two players were joined on
different servers (its commits then reach the other player through Redis), which
affinity leaves to the moments around a ring change: one player seated while the room's
server was out of the ring and the other once it was back, or two players' reconnects
after a drop landing one on the restarted server and one on the survivor.
Without the balancer every socket goes to a random server, and about half the rooms are
split. A server that took player sockets since its last restart took its share of the
ring back. The first few split rooms are listed with each player's servers and when (from
the room's first seat) it sat there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .game import PLAYERS, GameLog

__all__ = ["placement", "render_placement"]

EXAMPLES = 10
"""Split rooms listed in the report (JSON), each player's servers and when it sat there."""


def placement(
    games: Iterable[GameLog],
    restarted: Mapping[str, float],
    name: Callable[[str], str] = str,
) -> dict[str, Any]:
    """The summary: ``restarted`` maps a server's name to its last restart's
    ``time.monotonic()``; ``name`` turns what a client saw (a URL, a balancer's server
    name) into the server's name."""
    players: Counter[str] = Counter()
    since_restart: Counter[str] = Counter()
    spectators: Counter[str] = Counter()
    rooms = moved = split = split_at_end = apart = 0
    examples: list[dict[str, Any]] = []
    for game in games:
        for client, welcomes in game.seated.items():
            for server, when in welcomes:
                if client in PLAYERS:
                    players[name(server)] += 1
                    if when > restarted.get(name(server), float("inf")):
                        since_restart[name(server)] += 1
                else:
                    spectators[name(server)] += 1
        seats = [game.seated.get(player, []) for player in PLAYERS]
        if not all(seats):
            continue
        rooms += 1
        moved += any(len({name(server) for server, _ in seat}) > 1 for seat in seats)
        apart_at_end = len({name(seat[-1][0]) for seat in seats}) > 1
        split += game.apart > 0
        split_at_end += apart_at_end
        apart += game.apart
        if (game.apart or apart_at_end) and len(examples) < EXAMPLES:
            start = min(when for seat in seats for _, when in seat)
            examples.append(
                {
                    "game": game.number,
                    "room_id": game.room_id,
                    "faults": sorted(game.faults),
                    "moves_apart": game.apart,
                    "seated": {
                        player: [[name(server), round(when - start, 3)] for server, when in seat]
                        for player, seat in zip(PLAYERS, seats, strict=True)
                    },
                }
            )
    servers = sorted(set(players) | set(spectators) | set(restarted))
    return {
        "servers": {
            server: {
                "players": players[server],
                "players_since_restart": since_restart[server] if server in restarted else None,
                "spectators": spectators[server],
            }
            for server in servers
        },
        "rooms": rooms,
        "moved": moved,
        "split": split,
        "split_at_end": split_at_end,
        "moves_apart": apart,
        "split_examples": examples,
    }


def render_placement(summary: Mapping[str, Any]) -> list[str]:
    def players(server: str, counts: Mapping[str, Any]) -> str:
        since = counts["players_since_restart"]
        after = "" if since is None else f" ({since} since its last restart)"
        return f"{server} {counts['players']}{after}"

    servers = summary["servers"]
    return [
        "players' sockets by server: "
        + ", ".join(players(server, counts) for server, counts in servers.items())
        + "; spectators': "
        + ", ".join(f"{server} {counts['spectators']}" for server, counts in servers.items()),
        f"{summary['rooms']} rooms seated: {summary['moved']} had a player move to another "
        f"server, {summary['split']} split (a move acknowledged while the players were on "
        f"different servers; {summary['moves_apart']} such moves), "
        f"{summary['split_at_end']} split at the end",
    ]
