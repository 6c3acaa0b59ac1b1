"""A tournament's live socket and the feeds that push its record to every watcher."""

from __future__ import annotations

from .feeds import TournamentFeeds
from .socket import tournament_socket

__all__ = ["TournamentFeeds", "tournament_socket"]
