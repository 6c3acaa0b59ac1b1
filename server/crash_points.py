"""Deliberate crashes at named points, for the tests that prove a worker may die there.

Off unless the environment names the point: a test sets ``TTT_TEST_CRASH_AT=<point>`` on one
server process (not a ``TICTACTOE_*`` setting: no operator has a use for it, and ``serve``
does not list it). At that point the process ends at once with ``os._exit``, as ``kill -9``
would leave it: nothing flushed, no shutdown, no departure recorded.

``TTT_TEST_RAISE_AT=<point>`` raises a RuntimeError there instead: an internal error, which
the server answers and logs at ERROR (the error-report tests, tests/server/telemetry/).

``after_seat``: a seat-taking ``join`` (or quick play) has committed its seat and the answer
carrying the token is not yet written. ``after_rating``: a rated game's ratings are applied in
the rating book and ``RatingsApplied`` is not yet committed (rooms.ratings.rater).
"""

from __future__ import annotations

import os

__all__ = ["AFTER_RATING", "AFTER_SEAT", "CRASH_ENV", "CRASH_STATUS", "RAISE_ENV", "crash_point"]

CRASH_ENV = "TTT_TEST_CRASH_AT"
RAISE_ENV = "TTT_TEST_RAISE_AT"
AFTER_SEAT = "after_seat"
AFTER_RATING = "after_rating"
CRASH_STATUS = 137
"""The exit status, as a shell reports a process killed with SIGKILL."""


def crash_point(name: str) -> None:
    """End the process now if the environment names ``name`` (see the module)."""
    if os.environ.get(CRASH_ENV) == name:
        os._exit(CRASH_STATUS)
    if os.environ.get(RAISE_ENV) == name:
        raise RuntimeError(f"deliberate failure at {name} ({RAISE_ENV})")
