"""Spectators who play along: guesses of the next move, the crowd's split and streaks.

``check_guess`` judges a guess against the room (sans-I/O); the ``GuessBook`` seam keeps the
guesses of every worker's spectators per room and ply (memory, or a Redis hash), so the
split each worker reads when a move lands is the whole crowd's; ``GuessDesk`` is a worker's
counter: its spectators' guesses and streaks, and the ``guesses`` message after each move.
"""

from __future__ import annotations

from rooms.guesses.book import GuessBook, MemoryGuessBook, ply_key
from rooms.guesses.check import cell_key, check_guess
from rooms.guesses.desk import GuessDesk

__all__ = ["GuessBook", "GuessDesk", "MemoryGuessBook", "cell_key", "check_guess", "ply_key"]
