"""Round-robin tournaments as the tests write them: players by number, results by pair."""

from __future__ import annotations

from core import Standing, Tournament

__all__ = ["DRAW", "names", "play", "table"]

DRAW = "draw"


def names(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


def play(tournament: Tournament, games: dict[tuple[str, str], str]) -> None:
    """Record results given as {(one player, other player): winner or DRAW}."""
    for (a, b), outcome in games.items():
        [pairing] = [p for p in tournament.pairings if set(p.players) == {a, b}]
        tournament.record(pairing, None if outcome == DRAW else outcome)


def table(tournament: Tournament) -> dict[str, Standing]:
    return {s.name: s for s in tournament.standings()}
