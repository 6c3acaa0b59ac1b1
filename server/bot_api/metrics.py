"""The bot API's metrics (server.metrics.families ``BOT_*``): bots online on this worker,
token checks by result, moves played, and refusals by the limit reached."""

from __future__ import annotations

from ..metrics.families import BOT_AUTH, BOT_MOVES, BOT_REFUSALS, BOTS_ONLINE

__all__ = ["authenticated", "moved", "offline", "online", "refused"]


def authenticated(ok: bool) -> None:
    BOT_AUTH.labels("ok" if ok else "refused").inc()


def moved() -> None:
    BOT_MOVES.inc()


def refused(limit: str) -> None:
    """A bot refused for ``limit``: ``max_games``, ``games_per_day``, ``moves_per_second`` or
    ``auth_rate``."""
    BOT_REFUSALS.labels(limit).inc()


def online() -> None:
    BOTS_ONLINE.inc()


def offline() -> None:
    BOTS_ONLINE.dec()
