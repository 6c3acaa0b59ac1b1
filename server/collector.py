"""The garbage collector tuned for a long-running worker (``Settings.tune_gc``).

Two changes, both measured under ``tictactoe bench`` (docs/performance.md):

- ``gc.freeze()`` once the worker has started: the tens of thousands of objects made by
  imports and startup (modules, classes, functions) are never garbage, yet every full
  collection walked them again. Frozen, they are skipped; they are still freed by reference
  counting if they ever become unreachable.
- A full collection after every ``FULL_EVERY`` collections of the middle generation
  instead of CPython's 10 (it also still waits for the long-lived objects to grow by a
  quarter). A worker holding thousands of connections has a heap of hundreds of thousands
  of objects; each full collection walks all of it and stops the event loop meanwhile
  (100–200 ms of CPU measured at 1,500 connections), which every move in flight then
  waits for. The young generations, where almost all garbage dies, are still collected
  as often as by default, so memory grows little (RSS +5 % in the same run).
"""

from __future__ import annotations

import gc

__all__ = ["FULL_EVERY", "tune_collector"]

FULL_EVERY = 100
"""Middle-generation collections between two full ones (CPython's default is 10)."""


def tune_collector() -> None:
    """Collect what startup left behind, freeze the rest, and make full collections rare.

    Process-wide; call once per worker, after startup and before serving."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_EVERY)
