"""What a room command did, typed: its event and its reply as the types a test expects.

``Handled`` (the sans-I/O room) and ``Executed`` (the service) carry ``Event | None`` and a
``Reply`` union; a test that expects, say, a ``Moved`` and a ``MoveReply`` says so here and
reads their fields, and fails with what it got instead.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from rooms.room import Event, Reply

__all__ = ["event_of", "reply_of"]

E = TypeVar("E", bound=Event)
R = TypeVar("R", bound=Reply)


class _Did(Protocol):
    @property
    def event(self) -> Event | None: ...

    @property
    def reply(self) -> Reply: ...


def event_of(did: _Did, kind: type[E]) -> E:
    """``did``'s event, which must be a ``kind``."""
    event = did.event
    assert isinstance(event, kind), f"expected a {kind.__name__} event, got {event!r}"
    return event


def reply_of(did: _Did, kind: type[R]) -> R:
    """``did``'s reply, which must be a ``kind``."""
    reply = did.reply
    assert isinstance(reply, kind), f"expected a {kind.__name__}, got {reply!r}"
    return reply
