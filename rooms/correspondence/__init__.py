"""Correspondence games: days per move, the deadlines kept by the store, and "your turn".

The time control is ``TimeControl.days`` (rooms.room.config; its clock goes back to the whole
allowance after each move, rooms.room.clock); the store keeps each such room's deadline and
players (rooms.backends.due); ``DeadlineScanner`` ends, on any worker, the games whose deadline
passed; ``player_games`` lists an identity's games, its move first.
"""

from __future__ import annotations

from rooms.correspondence.games import MAX_GAMES, game_line, player_games
from rooms.correspondence.scanner import DeadlineScanner

__all__ = ["MAX_GAMES", "DeadlineScanner", "game_line", "player_games"]
