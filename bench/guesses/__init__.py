"""What spectators' guesses cost the players: ``python -m bench.guesses`` (its flags, what it
measures and when it fails: bench.guesses.run).

The two players play their rounds in the benchmark's process (``players``), the guessing
crowd runs in a child process (``crowd``), both on one room (``room``); ``run`` starts the
servers and the crowd, plays the rounds and reports.
"""

from __future__ import annotations

from .run import main, measure

__all__ = ["main", "measure"]
