"""The room service: load → handle → compare-and-set commit → publish, the one write path.

Every command goes through ``execute``: take the room (the cached copy, else a load), let the
sans-I/O room handle the command on a copy, and commit only if the stored version is still the
one handled (the store publishes the event in the same step). On a conflict the store's answer
carries the current room and the command is re-validated against it, so two workers racing on
one room never both win. A per-room asyncio lock only cuts down local conflicts; the
compare-and-set is the guarantee. Observers (timers and bots, rooms.watch) see every room this
service loads or changes, so whichever worker touches a room notices a passed deadline.

Rooms handed out (``create``, ``execute``, ``load``, observers) are the cache's own
(rooms.cache), so a command neither decodes nor replays its room: read them, hold them across
awaits, never change them (``Room.copy`` gives one to change). A refusal or a lost
compare-and-set leaves the cached room as it was.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass
from typing import Any, Protocol, cast

from core import GameError, Rules
from rooms.backends.due import DueChange
from rooms.backends.index import IndexChange, IndexingStore
from rooms.backends.memory import MemoryStore
from rooms.backends.store import Store, StoredRoom
from rooms.cache import CachedRoom, RoomCache
from rooms.common import metrics
from rooms.common.ids import new_room_id, valid_room_id
from rooms.common.keyed_locks import KeyedLocks
from rooms.errors import ErrorCode, RoomError, from_game_error
from rooms.fanout.unsure import UnsureCommits
from rooms.protocol.codec import decode_room, encode_room
from rooms.protocol.messages import dumps
from rooms.room.commands import Command, Reply
from rooms.room.config import RoomSettings
from rooms.room.events import Event
from rooms.room.room import Room

__all__ = ["Executed", "Observer", "RoomService"]

log = logging.getLogger("tictactoe.rooms")

Observer = Callable[["Room", bool], None]
"""Called with a room as loaded or changed here, and whether this service just changed it."""


class LocalFanout(Protocol):
    """Where this worker's own listeners of a room are (the hub, rooms.fanout)."""

    def committed(self, room_id: str, version: int, text: str) -> None:
        """The event ``text`` of ``version``, just committed by this worker."""


@dataclass(slots=True)
class Executed:
    """The room after the command (committed, or unchanged), the reply, and the event.

    Read-only by convention, not frozen: one is built per command (see rooms.room.handled)."""

    room: Room
    reply: Reply
    event: Event | None
    event_text: str | None = None
    """The committed event's text, byte for byte as logged and published (None: nothing
    committed), so the connection that sent the command can have it with its answer."""


_UNLOCKED: AbstractAsyncContextManager[None] = nullcontext()
"""What ``_locked`` gives without local locks (a nullcontext can be entered any number of
times, by any number of tasks at once)."""


class RoomService:
    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        max_attempts: int = 64,
        local_locks: bool = True,
        cache: RoomCache | None = None,
    ) -> None:
        self.store = store
        self.cache = cache if cache is not None else RoomCache()
        """This worker's copies of rooms (rooms.cache); the hub keeps them current."""
        self._clock = clock
        self._max_attempts = max_attempts
        self._local_locks = local_locks
        self._locks = KeyedLocks()
        self.conflicts = 0
        """How many commits lost a compare-and-set race and were retried (for tests/metrics)."""
        self.observers: list[Observer] = []
        self._fanout: LocalFanout | None = None
        self._unsure: UnsureCommits | None = None
        self._worker: Callable[[], str] | None = None
        self._deferred = isinstance(store, MemoryStore)
        """The store encodes a committed room only when it is read (rooms.backends.memory):
        a commit hands it ``encode_room`` of the room, which nobody changes again."""

    def fan_out_locally(self, fanout: LocalFanout, worker: Callable[[], str]) -> None:
        """Hand every event this service commits to ``fanout`` at once, and have the store
        publish it only for other workers (see the module). ``worker`` gives this worker's
        id as its connection ids carry it (rooms.common.ids)."""
        self._fanout = fanout
        self._unsure = UnsureCommits(self.store, fanout.committed)
        self._worker = worker

    async def close(self) -> None:
        """Stop the background work: the checks of commits whose answer was lost."""
        if self._unsure is not None:
            await self._unsure.close()

    def _for_others(self, room: Room) -> bool:
        """Whether a commit of ``room`` must be published for other workers."""
        worker = self._worker
        return worker is None or room.held_elsewhere(worker())

    def now(self) -> float:
        return self._clock()

    def _observe(self, room: Room, changed: bool) -> None:
        for observer in tuple(self.observers):
            try:
                observer(room, changed)
            except Exception:  # an observer's bug must not fail the command that landed
                log.exception("room %s: an observer failed", room.room_id)

    # -- writes ---------------------------------------------------------------------------

    async def create(
        self,
        rules: Rules | dict[str, Any],
        *,
        public: bool,
        settings: RoomSettings | None = None,
        bot: tuple[str, str] | None = None,
    ) -> Room:
        """A new room (version 0); rules as a value or a plain dict (validated); ``bot`` is
        ``(level, mark)`` of a bot seated at once."""
        if not isinstance(rules, Rules):
            try:
                rules = Rules.from_dict(rules)
            except GameError as exc:
                raise from_game_error(exc) from exc
        for _ in range(self._max_attempts):
            now = self._clock()
            room = Room(
                new_room_id(public=public), rules, public=public, created=now, settings=settings
            )
            if bot is not None:
                room.seat_bot(*bot)
            data = encode_room(room)
            if await self.store.create(room.room_id, data, listed=room.listed):
                self.cache.offer(room.room_id, 0, data, room)
                return room
        raise RoomError(ErrorCode.BUSY, "could not find a free room id; try again")

    async def create_named(
        self,
        room_id: str,
        rules: Rules,
        *,
        settings: RoomSettings,
        seat: Callable[[Room], None],
    ) -> Room | None:
        """A new private room under a chosen id (a tournament game's), its seats filled by
        ``seat`` before it is stored; None when the id is taken: whoever made it first made
        this same room, so a retry or a second worker never makes a twin."""
        room = Room(room_id, rules, public=False, created=self._clock(), settings=settings)
        seat(room)
        data = encode_room(room)
        if not await self.store.create(room_id, data, listed=room.listed):
            return None
        self.cache.offer(room_id, 0, data, room)
        self._observe(room, True)  # a bot to move first is asked at once
        return room

    async def execute(
        self, room_id: str, command: Command, *, index: IndexChange | None = None
    ) -> Executed:
        """Apply ``command`` to the room through compare-and-set; RoomError when refused.

        The command is handled on a copy of the cached room (else a loaded one) and committed
        with ``swap``; a refusal hands back the current room for the next attempt, so a stale
        copy costs one more round trip, never a wrong write. A refusal, or an answer that
        changes nothing, is given only against the room as stored: a cached copy is checked
        again after a load. ``index``: a presence index change the commit makes too
        (rooms.backends.index; only for a store that can, and never made when nothing is
        committed, ``Executed.event`` None)."""
        async with self._locked(room_id):
            cached = self.cache.get(room_id) if valid_room_id(room_id) else None
            fresh = False  # whether ``cached`` is what the store answered just now
            for _ in range(self._max_attempts):
                if cached is None:
                    cached = self.cache.put(room_id, await self._load_stored(room_id))
                    fresh = True
                held = _decoded(cached)
                room = held.copy()  # ``held`` stays as the store had it, whatever happens
                try:
                    handled = room.handle(command, self._clock())
                except RoomError:
                    if not fresh:  # a refusal is only ever judged on the store's room
                        cached = None
                        continue
                    self._observe(held, False)  # it may have seen a deadline
                    raise
                if handled.event is None:
                    if not fresh:  # so is an answer that changes nothing (a tick not due)
                        cached = None
                        continue
                    self._observe(held, False)
                    return Executed(held, handled.reply, None)
                data = None if self._deferred and index is None else encode_room(room)
                event_text = dumps(handled.event)
                # copies share the archive until a new game replaces it (Room.copy)
                archive_unchanged = room.games is held.games
                publish = self._for_others(room)
                # a correspondence room's deadline and lifetime, kept by the store (due)
                extra = {"due": _due_change(room, self._clock())} if room.correspondence else {}
                started = time.perf_counter()
                try:
                    if data is None:
                        swapped = await cast(MemoryStore, self.store).swap(
                            room_id,
                            cached.version,
                            functools.partial(encode_room, room),
                            event_text,
                            listed=room.listed,
                            finished=room.game.is_over,
                            archive_unchanged=archive_unchanged,
                            publish=publish,
                            **extra,
                        )
                    elif index is None:
                        swapped = await self.store.swap(
                            room_id,
                            cached.version,
                            data,
                            event_text,
                            listed=room.listed,
                            finished=room.game.is_over,
                            archive_unchanged=archive_unchanged,
                            publish=publish,
                            **extra,
                        )
                    else:  # only a store that can is ever given one (Registry.folds_into)
                        swapped = await cast(IndexingStore, self.store).swap(
                            room_id,
                            cached.version,
                            data,
                            event_text,
                            listed=room.listed,
                            finished=room.game.is_over,
                            archive_unchanged=archive_unchanged,
                            publish=publish,
                            index=index,
                            **extra,
                        )
                except RoomError as exc:
                    # no answer: the commit may have landed, with its event handed to nobody
                    # here (rooms.fanout.unsure)
                    if exc.code is ErrorCode.UNAVAILABLE and self._unsure is not None:
                        self._unsure.note(room_id, cached.version)
                    raise
                metrics.sink.commit(time.perf_counter() - started)
                if swapped.committed:
                    self.cache.offer(room_id, room.version, data, room)
                    if self._fanout is not None:
                        self._deliver_locally(room_id, room.version, event_text)
                    self._observe(room, True)
                    return Executed(room, handled.reply, handled.event, event_text)
                self.conflicts += 1
                fresh = True  # the refusal carries the room (None: gone or lost; a load says)
                against = cached.version
                if swapped.current is None:
                    cached = None
                    self.cache.drop(room_id)
                else:
                    cached = self.cache.put(room_id, swapped.current)
                    if cached.version > against and self._unsure is not None:
                        # Commits past ours: another worker's, which reach our listeners
                        # over the bus, or this very one, landed by an attempt whose
                        # answer was lost and refused when the driver sent it again
                        # (redis-py's Cluster client resends a command after a connection
                        # error, as a failover makes one). Its event went to nobody here:
                        # hand over what the store holds past ``against`` (rooms.fanout.
                        # unsure; a listener skips the versions it has).
                        self._unsure.note(room_id, against)
                await asyncio.sleep(0)
        raise RoomError(ErrorCode.BUSY, f"room {room_id!r} is changing too fast; try again")

    def _deliver_locally(self, room_id: str, version: int, text: str) -> None:
        assert self._fanout is not None
        try:
            self._fanout.committed(room_id, version, text)
        except Exception:  # the commit landed: a listener's bug must not turn it into an error
            log.exception("room %s: the local fan-out failed", room_id)

    def _locked(self, room_id: str) -> AbstractAsyncContextManager[None]:
        """The room's local lock, to hold with ``async with`` (nothing to hold without
        local locks; rooms.common.keyed_locks keeps only the rooms in use)."""
        if not self._local_locks:
            return _UNLOCKED
        return self._locks.hold(room_id)

    # -- reads ----------------------------------------------------------------------------

    async def _load_stored(self, room_id: str) -> StoredRoom:
        stored = await self.store.load(room_id) if valid_room_id(room_id) else None
        if stored is None:
            raise RoomError(ErrorCode.ROOM_NOT_FOUND, f"there is no room {room_id!r:.80}")
        return stored

    async def load(self, room_id: str) -> Room:
        """The room as stored now (read it, never change it: it is the cached one);
        RoomError(room_not_found) when there is none. A text the cache holds decoded
        already is not decoded again."""
        stored = await self._load_stored(room_id)
        room = _decoded(self.cache.put(room_id, stored))
        self._observe(room, False)
        return room

    async def current(self, room_id: str) -> Room:
        """The room as this worker knows it: its cached copy when it holds one (kept current
        by this worker's commits and the bus while it holds connections of the room), else
        ``load``. For reads that may be a moment behind (a spectator's guess), never for a
        refusal or a commit."""
        cached = self.cache.get(room_id)
        if cached is not None:
            return _decoded(cached)
        return await self.load(room_id)

    async def snapshot(self, room_id: str) -> dict[str, Any]:
        return (await self.load(room_id)).snapshot(self._clock())

    async def events_since(
        self, room_id: str, version: int, *, upto: int | None = None
    ) -> list[str] | None:
        """Event texts after ``version`` (up to ``upto`` when given), oldest first; None when
        the log no longer reaches back (the caller then sends the full snapshot)."""
        if not valid_room_id(room_id):
            return None
        texts = await self.store.events_since(room_id, version)
        if texts is None or upto is None:
            return texts
        if version > upto:
            return None
        wanted = upto - version
        return texts[:wanted] if len(texts) >= wanted else None

    async def list_public(self, limit: int = 100) -> list[dict[str, Any]]:
        """Public rooms waiting for a player first, then games in progress (newest first)."""
        rooms = [decode_room(stored.data) for stored in await self.store.listed(limit)]
        summaries = [room.summary() for room in rooms if room.listed]
        summaries.sort(key=lambda s: s["status"] != "waiting")  # stable: newest first kept
        return summaries


def _due_change(room: Room, now: float) -> DueChange:
    """The deadline a correspondence room has after a commit, how long the store keeps it
    untouched (past the deadline by a whole allowance, so its end can still be seen), and
    the identities seated in it (rooms.backends.due)."""
    control = room.settings.time_control
    assert control is not None
    deadline = room.deadline()
    at = deadline.at if deadline is not None else None
    keep = max(at - now, 0.0) + control.initial if at is not None else control.initial
    players = tuple(seat.player_id for seat in room.seats if seat.player_id and not seat.bot)
    return DueChange(at, keep, players)


def _decoded(cached: CachedRoom) -> Room:
    """The room ``cached`` holds, decoded from its text the first time it is needed (from
    the entry's base, an earlier state of the room, when it has one: rooms.cache)."""
    if cached.room is None:
        cached.room = decode_room(cached.data, cached.base)
        cached.base = None  # one room per entry: the base has served
    return cached.room
