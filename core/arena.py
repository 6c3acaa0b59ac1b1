"""Arena pairing: whoever is free meets the nearest free player in the standings.

An arena runs for a fixed time, not a schedule: a player who finishes a game is paired again
with the next free player of similar score (docs/tournaments.md). ``pair`` takes the free
players best first (points, then the order they entered) and pairs greedily from the top, each
with the nearest one below that was not their last opponent; a player with nobody suitable
waits for the next look. An immediate rematch is allowed only when nobody else could become
free (``everyone_free``), so two lone players are not kept apart for ever. With an odd count,
the one who sits out is whoever came free last (``free_since``), so nobody waits round after
round because of their place in the table.

Colours balance: of the two, the one who has played first less often (``lean``: games as X
minus games as O) plays first; on a tie the higher placed does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ArenaPlayer", "pair"]


@dataclass(frozen=True, slots=True)
class ArenaPlayer:
    name: str
    points: int
    lean: int = 0
    """Games played first minus games played second."""
    last_opponent: str | None = None
    free_since: float = 0.0
    """When their last game ended (0 for none yet)."""


def pair(free: Sequence[ArenaPlayer], *, everyone_free: bool = False) -> list[tuple[str, str]]:
    """The games to start now, as (plays first, plays second), best placed first; ``free``
    in entry order. Nobody appears twice."""
    order = sorted(range(len(free)), key=lambda i: (-free[i].points, i))
    ranked = [free[i] for i in order]
    if len(ranked) % 2 == 0:
        return _greedy(ranked, everyone_free)
    # Someone sits out: the latest to come free (the lowest placed of those), unless leaving
    # another out makes more games (their only fresh opponent is the one sitting out).
    best: list[tuple[str, str]] = []
    by_latest = sorted(range(len(ranked)), key=lambda i: (-ranked[i].free_since, -i))
    for out in by_latest:
        games = _greedy(ranked[:out] + ranked[out + 1 :], everyone_free)
        if len(games) > len(best):
            best = games
        if len(best) == len(ranked) // 2:
            break
    return best


def _greedy(ranked: list[ArenaPlayer], everyone_free: bool) -> list[tuple[str, str]]:
    """Pair from the top, each with the nearest one below who was not their last opponent."""
    waiting = list(range(len(ranked)))
    games: list[tuple[str, str]] = []
    while len(waiting) >= 2:
        top = ranked[waiting[0]]
        others = waiting[1:]
        fresh = [i for i in others if ranked[i].name != top.last_opponent]
        partner_at = fresh[0] if fresh else (others[0] if everyone_free else None)
        if partner_at is None:
            waiting.pop(0)  # only their last opponent is free: wait for someone else
            continue
        partner = ranked[partner_at]
        waiting.remove(partner_at)
        waiting.pop(0)
        first, second = (partner, top) if partner.lean < top.lean else (top, partner)
        games.append((first.name, second.name))
    return games
