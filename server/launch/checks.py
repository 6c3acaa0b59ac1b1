"""What ``tictactoe serve`` checks before it starts a worker: names and the store.

- ``setting_labels``: each setting's real flag and environment variable, read off the
  parser, so an error names what the operator actually typed (``--port
  (TICTACTOE_PORT)``, or only ``TICTACTOE_BOT_POOL`` for a setting without a flag).
- ``unknown_variables``: ``TICTACTOE_*`` variables no setting reads, each with the closest
  valid name (a typo must not pass silently as "the default").
- ``reach_store``: the store answers (retried with backoff for ``wait`` seconds), so an
  unreachable Redis fails the start at once with one line, for any worker count.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import logging
import time
from collections.abc import Mapping
from dataclasses import fields

from rooms import BackendOptions, RoomError, open_backend

from ..errors import ServerError
from ..settings import Settings

__all__ = [
    "OTHER_VARIABLES",
    "StoreUnreachable",
    "reach_store",
    "setting_labels",
    "unknown_variables",
]

log = logging.getLogger("tictactoe.server")

OTHER_VARIABLES = frozenset({"TICTACTOE_VENV"})
"""``TICTACTOE_*`` variables read by something other than the settings (``./run``)."""
_PREFIX = len("TICTACTOE_")
_FLAG_OF = {"store_url": "redis_url"}
"""Settings whose flag's name differs from the field's."""


def env_names(name: str) -> tuple[str, ...]:
    """The variables that set the field ``name``."""
    own = f"TICTACTOE_{name.upper()}"
    return ("REDIS_URL", own) if name == "store_url" else (own,)


def setting_labels(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each Settings field's flag and variables, as an error message names them."""
    flags = {
        action.dest: action.option_strings[-1]
        for action in parser._actions  # argparse keeps no public list of its actions
        if action.option_strings
    }
    labels = {}
    for spec in fields(Settings):
        variables = ", ".join(env_names(spec.name))
        flag = flags.get(_FLAG_OF.get(spec.name, spec.name))
        labels[spec.name] = f"{flag} ({variables})" if flag else variables
    return labels


def unknown_variables(env: Mapping[str, str]) -> list[str]:
    """A warning for each ``TICTACTOE_*`` variable in ``env`` that nothing reads."""
    known = {name for spec in fields(Settings) for name in env_names(spec.name)}
    known = {name for name in known if name.startswith("TICTACTOE_")} | OTHER_VARIABLES
    warnings = []
    for name in sorted(env):
        if not name.startswith("TICTACTOE_") or name in known:
            continue
        # compared without the prefix every name shares, which would make anything close
        close = difflib.get_close_matches(name[_PREFIX:], [k[_PREFIX:] for k in sorted(known)], 1)
        hint = f"; did you mean TICTACTOE_{close[0]}?" if close else ""
        warnings.append(f"ignoring the unknown environment variable {name}{hint}")
    return warnings


class StoreUnreachable(ServerError):
    """The store did not answer within the wait; ``str`` says which store and why."""


def reach_store(settings: Settings, shown_url: str, *, wait: float) -> None:
    """Return once the store at ``settings.store_url`` answers; retry with backoff (0.1 s,
    doubling, at most 2 s apart) for up to ``wait`` seconds, then raise StoreUnreachable.
    A backend of its own, opened and closed on a loop of its own: the workers' are not.
    The in-memory store always answers."""
    if not open_backend(settings.store_url).shared:
        return
    deadline = time.monotonic() + wait
    delay = 0.1
    while True:
        try:
            asyncio.run(_ping(settings))
            return
        except RoomError as exc:
            reason = exc.message
        except Exception as exc:  # e.g. a refused password: said in one line all the same
            reason = f"{type(exc).__name__}: {exc}"
        left = deadline - time.monotonic()
        if left <= 0:
            waited = f" after {wait:g}s" if wait else ""
            raise StoreUnreachable(f"cannot reach the store {shown_url}{waited}: {reason}")
        log.warning("the store %s does not answer yet (%s); retrying", shown_url, reason)
        time.sleep(min(delay, left))
        delay = min(delay * 2, 2.0)


async def _ping(settings: Settings) -> None:
    backend = open_backend(settings.store_url, BackendOptions(auto_pipeline=False))
    try:
        await backend.store.open()
        await backend.store.ping()
    finally:
        await backend.store.close()
