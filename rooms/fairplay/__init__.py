"""Fair play: each finished game's moves judged against the solver (core.fairplay), counted
per identity once (``ledger``), by whichever worker saw the game end (``judge``: import it
from ``rooms.fairplay.judge``; it needs the room service, which the backends this package's
ledger serves come before)."""

from __future__ import annotations

from rooms.fairplay.ledger import (
    FLAG_CRITICAL,
    FLAG_RATE,
    FairPlayLedger,
    MemoryLedger,
    Summary,
)

__all__ = ["FLAG_CRITICAL", "FLAG_RATE", "FairPlayLedger", "MemoryLedger", "Summary"]
