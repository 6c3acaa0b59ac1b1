"""What a room's listeners are still owed while a crowd's fan-out is served in slices.

The hub hands each event at once to the first listeners of the room's order (the players, or
the first slice) and leaves the rest owed here; each turn of the event loop it ``take``s up to
a slice of listeners and what they are owed, oldest event first, until nothing is owed.

Contract, for any mix of ``owe`` and ``take``: every listener gets each event owed to it once,
and its events in the order they came, whether the caller handed them at once or it took them
here. Listeners owed the same events form a run, so one that is owed several (an event came
while it waited) gets them all in one hand-over, for one write (``BatchListener.deliver_all``):
a game's last move, the rematch offer and the new game reach a waiting crowd together.

Pure: no event loop, no I/O; a listener is any object, compared by its place in its order.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["Backlog", "Event"]

T = TypeVar("T")

Event = tuple[int, str]
"""(version, text) of one event, as listeners are handed it."""


class Backlog(deque["_Order[T]"]):
    """A room's fan-outs still being served, oldest first; false when nothing is owed.

    One part per listener order: once the order changes (a listener came, went, or joined),
    later events are owed in a part of their own, served after the earlier ones, as each
    event's own fan-out was. The backlog is the deque of those parts itself, so that ``if
    backlog``, asked at every event of every room, costs no Python call; only ``owe`` and
    ``take`` change it."""

    __slots__ = ()

    def owe(self, listeners: tuple[T, ...], event: Event, served: int) -> None:
        """``event`` is owed to ``listeners`` past the first ``served``, whom the caller
        handed it at once. Those must be owed nothing here, or they would get it before the
        earlier events they are owed: the caller serves the first slice at once only when
        nothing is owed, and otherwise only the players, who are never owed anything.

        ``listeners`` is the room's order (the same tuple while it holds): with the same
        order as the last part, the event is added to what that part owes."""
        if self and self[-1].listeners is listeners:
            self[-1].add(event, served)
        elif served < len(listeners):
            self.append(_Order(listeners, [_Owed(served, len(listeners), [event])]))

    def take(self, budget: int) -> tuple[tuple[T, ...], list[Event]]:
        """Up to ``budget`` (> 0) listeners owed the oldest event, and everything they are
        owed, oldest first: one hand-over, taken off the backlog. Only while it is true."""
        order = self[0]
        served = order.take(budget)
        if not order.runs:
            self.popleft()
        return served


@dataclass(slots=True)
class _Owed:
    """Listeners ``next`` to ``stop`` (of an order) are owed ``events``."""

    next: int
    stop: int
    events: list[Event]
    """Oldest first; a list of this run's own, appended to as events come."""


@dataclass(slots=True)
class _Order(Generic[T]):
    """What the listeners of one order are still owed: runs of them, each owed the same
    events. A listener of the order in no run has every event this part took. An event that
    comes is added to every run, and a run is made of each stretch of listeners past those
    served at once that had everything, so that each listener is in one run at most and gets
    what it is owed in one hand-over."""

    listeners: tuple[T, ...]
    runs: list[_Owed]

    def add(self, event: Event, served: int) -> None:
        covered = sorted((run.next, run.stop) for run in self.runs)
        for run in self.runs:
            run.events.append(event)
        start = served
        for first, stop in covered:
            if first > start:
                self.runs.append(_Owed(start, first, [event]))
            start = max(start, stop)
        if start < len(self.listeners):
            self.runs.append(_Owed(start, len(self.listeners), [event]))

    def take(self, budget: int) -> tuple[tuple[T, ...], list[Event]]:
        """Up to ``budget`` listeners of the run owed the oldest event, and what they are
        owed (the run shrinks, and goes once served)."""
        run = min(self.runs, key=_oldest)
        end = min(run.next + budget, run.stop)
        served = self.listeners[run.next : end]
        run.next = end
        if end < run.stop:  # still owed to the rest: a later event may be added to it
            return served, list(run.events)
        self.runs.remove(run)
        return served, run.events


def _oldest(run: _Owed) -> tuple[int, int]:
    return run.events[0][0], run.next
