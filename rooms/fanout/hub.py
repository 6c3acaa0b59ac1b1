"""The worker's fan-out: one bus subscription per room that has local listeners.

A listener (a ``Feed``, one per connection) is attached before its connection reads the room, so
it sees every later event (subscribe first, then read). The bus hands messages over as they
arrive (no task per room); the hub reads an event's version once and gives the same text to
every listener. Listeners must not block: they queue, and a slow one is dropped by its own
connection. A crowd is served in slices: the players and the first ``SLICE`` listeners at once,
the rest ``SLICE`` per loop turn, so a watched move never holds the worker; a room's later
events wait behind its fan-outs in progress (the players' part excepted), keeping each
connection's events in order. What the unserved are owed is kept by ``rooms.fanout.backlog``:
a listener owed several events gets them together, in one write (``deliver_all``), so a game's
last move, the rematch offer and the new game reach most of a crowd in one system call each
instead of three.

An event this worker committed comes straight from the commit (``committed``, called by the
service: rooms.service), not from the bus, which carries it only for other workers; a copy the
bus brings back anyway (the room is also listened to elsewhere) is dropped by each feed as one
it already has.

Chat lines (no version) go only to their audience's listeners. ``on_due`` (the watch) hears
every event's ``due``, so timers follow other workers' commits too. A framed message
(``Store.swap`` on a network store) gives the room text to the cache (rooms.cache) and only the
event, byte for byte as logged, to the listeners.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from rooms.backends.bus import Bus, Subscription
from rooms.backends.store import FRAME, unframe
from rooms.cache import RoomCache
from rooms.common import metrics
from rooms.common.jsontext import loads
from rooms.errors import ErrorCode, RoomError
from rooms.fanout.backlog import Backlog, Event

__all__ = ["BatchListener", "ChatListener", "Hub", "Listener", "due_of", "event_due"]

log = logging.getLogger("tictactoe.rooms")

SLICE = 128
"""Listeners an event is handed to per turn of the event loop (see the module): small enough
that another room's players wait only briefly behind a crowd's fan-out."""


class Listener(Protocol):
    def deliver(self, version: int, text: str) -> None: ...


class BatchListener(Protocol):
    def deliver_all(self, events: list[tuple[int, str]]) -> None:
        """``deliver`` of each event in turn, sent in as few writes as it can."""


@runtime_checkable
class ChatListener(Protocol):
    audience: str | None

    def deliver_chat(self, text: str) -> None: ...


@dataclass(slots=True)
class _Channel:
    listeners: set[Listener] = field(default_factory=set)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    subscription: Subscription | None = None
    backlog: Backlog[Listener] = field(default_factory=Backlog)
    """What the room's listeners are still owed while a crowd is served in slices."""
    ordered: tuple[Listener, ...] | None = None
    """``listeners``, the players first, as the last event was handed out; None once a
    listener came or went (a crowd's order is made once, not at every event)."""
    unplaced: tuple[Listener, ...] = ()
    """Those of ``ordered`` that had no audience yet (not joined): placed among the
    watchers until they have one, then the order is made again."""

    def in_order(self) -> tuple[Listener, ...]:
        ordered = self.ordered
        if ordered is None or not all(map(_unplaced, self.unplaced)):
            ordered = tuple(self.listeners)
            if len(ordered) > 2:
                ordered = tuple(sorted(ordered, key=_watching))
            self.ordered = ordered
            self.unplaced = tuple(filter(_unplaced, ordered))
        return ordered


class Hub:
    def __init__(self, bus: Bus, cache: RoomCache | None = None) -> None:
        self._bus = bus
        self._cache = cache
        self._channels: dict[str, _Channel] = {}
        self.on_due: Callable[[str, float | None], None] | None = None
        """Called with the ``due`` of every event (``event_due``) the room's channel carries."""
        self.on_event: Callable[[str, int, str], None] | None = None
        """Called with every event handed to a room's listeners, after the players got it
        (rooms.guesses.GuessDesk.observe: the split that follows a move)."""

    async def publish(self, room_id: str, text: str) -> None:
        """Send a message that is not an event (a chat line) to the room's listeners."""
        await self._bus.publish(room_id, text)

    def listeners(self, room_id: str) -> int:
        channel = self._channels.get(room_id)
        return len(channel.listeners) if channel is not None else 0

    async def attach(self, room_id: str, listener: Listener) -> None:
        """Deliver every event of ``room_id`` published after this returns to ``listener``."""
        channel = self._channels.get(room_id)
        if channel is None:
            channel = self._channels[room_id] = _Channel()
            channel.listeners.add(listener)
            metrics.sink.rooms(len(self._channels))
            try:
                channel.subscription = await self._bus.subscribe(room_id)
            except BaseException:
                del self._channels[room_id]
                metrics.sink.rooms(len(self._channels))
                channel.ready.set()  # wake any waiter; it finds the channel gone
                raise
            channel.subscription.listen(functools.partial(self._on_message, room_id, channel))
            channel.ready.set()
            return
        channel.listeners.add(listener)
        channel.ordered = None
        await channel.ready.wait()
        if self._channels.get(room_id) is not channel:  # the first attach's subscribe failed
            raise RoomError(
                ErrorCode.UNAVAILABLE, f"could not subscribe to room {room_id!r}; try again"
            )

    async def detach(self, room_id: str, listener: Listener) -> None:
        channel = self._channels.get(room_id)
        if channel is None:
            return
        channel.listeners.discard(listener)
        channel.ordered = None
        if not channel.listeners and channel.ready.is_set():
            del self._channels[room_id]
            metrics.sink.rooms(len(self._channels))
            await self._stop(channel)

    async def _stop(self, channel: _Channel) -> None:
        # The subscription's listener is bound to the channel: dropped here, the closed
        # channel and subscription are freed at once instead of by a full collection.
        subscription, channel.subscription = channel.subscription, None
        if subscription is not None:
            await subscription.close()

    def committed(self, room_id: str, version: int, text: str) -> None:
        """The event ``text`` of ``version`` that this worker just committed: handed to the
        room's listeners here as a bus message would be (rooms.service.LocalFanout)."""
        channel = self._channels.get(room_id)
        if channel is not None and channel.listeners:
            self._deliver(room_id, channel, version, text)
        if self.on_due is not None:
            try:
                due = due_of(text)
            except ValueError:
                return
            self._noted(room_id, due)

    def _on_message(self, room_id: str, channel: _Channel, text: str) -> None:
        """One message of the room's channel, handed over by the bus as it arrives."""
        try:
            self._dispatch(room_id, channel, text)
        except Exception:  # the bus's reader serves every room: never let one break it
            log.exception("room %s: a bus message could not be handled", room_id)

    def _dispatch(self, room_id: str, channel: _Channel, text: str) -> None:
        if text.startswith(FRAME):
            self._framed(room_id, channel, text)
            return
        try:
            data = loads(text)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            log.warning("room %s: ignoring a bus message that is not an object", room_id)
            return
        version = data.get("version")
        if isinstance(version, int) and not isinstance(version, bool):
            self._deliver(room_id, channel, version, text)
            if self.on_due is not None:
                self._noted(room_id, event_due(data))
        elif data.get("type") == "chat" and isinstance(data.get("channel"), str):
            self._chat(room_id, channel, data["channel"], text)
        else:
            log.warning("room %s: ignoring a bus message that is not an event", room_id)

    def _framed(self, room_id: str, channel: _Channel, message: str) -> None:
        """An event with the room text after it (``framed``): the text goes to the worker's
        cache, only the event to the listeners (clients never see the room)."""
        parts = unframe(message)
        if parts is None:
            log.warning("room %s: ignoring a malformed framed bus message", room_id)
            return
        version, event = parts.version, parts.event
        if self._cache is not None:
            if parts.archive_of is None:
                self._cache.offer(room_id, version, parts.data)
            else:
                self._cache.offer_head(room_id, version, parts.data, parts.archive_of)
        self._deliver(room_id, channel, version, event)
        if self.on_due is not None:
            try:
                due = due_of(event)
            except ValueError:
                return
            self._noted(room_id, due)

    def _deliver(self, room_id: str, channel: _Channel, version: int, text: str) -> None:
        self._deliver_listeners(room_id, channel, version, text)
        if self.on_event is not None:
            try:
                self.on_event(room_id, version, text)
            except Exception:
                log.exception("room %s: the event hook failed", room_id)

    def _deliver_listeners(self, room_id: str, channel: _Channel, version: int, text: str) -> None:
        # The players first: in a room watched by a crowd the opponent's frame is not sent
        # after a thousand spectators' (the crowd must not slow the game down).
        listeners = channel.in_order()
        backlog = channel.backlog
        event = (version, text)
        if not backlog:
            self._serve(room_id, listeners[:SLICE], [event])
            if len(listeners) > SLICE:
                backlog.owe(listeners, event, SLICE)
                asyncio.get_running_loop().call_soon(self._serve_backlog, room_id, channel)
            return
        # Behind a fan-out still being served only the players go at once: they were served
        # at once then too, so they have every earlier event already.
        players = _players(listeners)
        self._serve(room_id, listeners[:players], [event])
        backlog.owe(listeners, event, players)

    def _serve_backlog(self, room_id: str, channel: _Channel) -> None:
        """One slice of the room's backlog; the next slice on the next turn."""
        budget = SLICE
        backlog = channel.backlog
        while backlog and budget > 0:
            listeners, events = backlog.take(budget)
            budget -= len(listeners)
            self._serve(room_id, listeners, events)
        if backlog:
            asyncio.get_running_loop().call_soon(self._serve_backlog, room_id, channel)

    def _serve(self, room_id: str, listeners: tuple[Listener, ...], events: list[Event]) -> None:
        if len(events) == 1:
            version, text = events[0]
            for listener in listeners:
                try:
                    listener.deliver(version, text)
                except Exception:  # one broken listener must not starve the others
                    log.exception("room %s: a listener failed", room_id)
            return
        for listener in listeners:
            try:
                deliver_all = getattr(listener, "deliver_all", None)  # a BatchListener's
                if deliver_all is not None:
                    deliver_all(events)
                else:
                    for version, text in events:
                        listener.deliver(version, text)
            except Exception:
                log.exception("room %s: a listener failed", room_id)

    def _chat(self, room_id: str, channel: _Channel, audience: str, text: str) -> None:
        for listener in tuple(channel.listeners):
            if isinstance(listener, ChatListener) and listener.audience == audience:
                try:
                    listener.deliver_chat(text)
                except Exception:
                    log.exception("room %s: a listener failed", room_id)

    def _noted(self, room_id: str, due: float | None) -> None:
        if self.on_due is None:
            return
        try:
            self.on_due(room_id, due)
        except Exception:
            log.exception("room %s: the event hook failed", room_id)

    async def close(self) -> None:
        channels, self._channels = list(self._channels.values()), {}
        metrics.sink.rooms(0)
        for channel in channels:
            await self._stop(channel)


def _watching(listener: Listener) -> bool:
    """False for a player's connection (sorted first), True for anyone else's."""
    return getattr(listener, "audience", None) != "players"


def _unplaced(listener: Listener) -> bool:
    return getattr(listener, "audience", None) is None


def _players(listeners: tuple[Listener, ...]) -> int:
    """How many of ``listeners`` (sorted by ``_watching``) are players' connections."""
    count = 0
    for listener in listeners:
        if _watching(listener):
            break
        count += 1
    return count


def event_due(event: dict[str, Any]) -> float | None:
    """When the server must act by itself on the room next (the event's ``due``), if ever."""
    due = event.get("due")
    return float(due) if isinstance(due, int | float) and not isinstance(due, bool) else None


_NULL_DUE_LAST = ',"due":null}'


def due_of(event: str) -> float | None:
    """``event_due`` of an event's compact JSON text (rooms.common.jsontext), parsing it only
    when its ``due`` is not ``null``; ValueError if it is not a JSON object.

    Room.handle adds ``due`` last, almost always ``null``. A text ending ``,"due":null}`` has
    that as its last member (quotes inside strings are escaped, so a quote after a comma opens
    a key), and the last of repeated keys counts, so ``due`` is None; a "due" anywhere else
    changes nothing."""
    if event.endswith(_NULL_DUE_LAST) and event.startswith("{"):
        return None
    parsed = loads(event)
    if not isinstance(parsed, dict):
        raise ValueError("not a JSON object")
    return event_due(parsed)
