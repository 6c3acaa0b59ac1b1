"""Where a worker holds connections: counts per room, its index of rooms, pending departures.

The index (rooms.backends.registry) follows the counts: a room where a commit recorded one of
the worker's connections is always indexed, so the sweep of a dead worker visits every room it
must (``sweep``). Apart, the first local connection indexes the room before its ``Join`` commits
and the last unindexes it after its ``Leave`` is recorded. Folded (the registry lives in the
store's Redis, ``Registry.folds_into``), a ``Join`` indexes in its own commit (refused, nothing
written, once the lease is gone) and the last ``Leave`` unindexes in its own: one round trip
fewer, and index and room change together or not at all. Indexing twice is harmless.

A room's joins and departures (per worker) run in order under one lock, so a departure decides
it is the last only while no join is half done. A ``Leave`` the store cannot take now is retried
at every heartbeat (``retry``) and keeps the room indexed meanwhile. Spectators of one worker
arriving or leaving together are one commit and one ``spectators`` event
(rooms.common.gathering; gathered for ``GATHER_WINDOW`` where the worker holds ``GATHER_FROM``
connections of the room), and everything above holds for the group as for one.
"""

from __future__ import annotations

import asyncio
import logging

from rooms.backends.index import IndexChange, NotIndexed
from rooms.backends.registry import Registry
from rooms.common.gathering import Gathering
from rooms.common.ids import worker_of
from rooms.common.keyed_locks import KeyedLocks
from rooms.errors import ErrorCode, RoomError
from rooms.room.commands import Join, JoinSpectators, Leave, LeaveSpectators, Role
from rooms.service import Executed, RoomService

__all__ = ["RETRIES_PER_BEAT", "TRANSIENT", "LocalRooms"]

log = logging.getLogger("tictactoe.rooms")

TRANSIENT = frozenset({ErrorCode.UNAVAILABLE, ErrorCode.BUSY})
GATHER_FROM = 4
"""Local connections in a room from which spectators arriving there are gathered for
``GATHER_WINDOW`` before their commit (see ``LocalRooms._watch``)."""
GATHER_WINDOW = 0.025
RETRIES_PER_BEAT = 256
"""Unrecorded departures retried per heartbeat (the rest wait for the next one)."""


class LocalRooms:
    def __init__(self, registry: Registry, service: RoomService, *, max_pending: int) -> None:
        self._registry = registry
        self._service = service
        self._max_pending = max_pending
        self.folds = registry.folds_into(service.store)
        """Whether index changes ride on the rooms' commits (see the module)."""
        self._counts: dict[tuple[str, str], int] = {}  # (worker id, room) -> connections
        self._locks = KeyedLocks()
        self._pending: dict[str, tuple[str, bool]] = {}  # conn -> (room, deliberate)
        self._arrivals: Gathering[tuple[str, str], Join, Executed] = Gathering(
            self._join_spectators, self._window
        )
        self._departures: Gathering[tuple[str, str], str, bool] = Gathering(
            self._leave_spectators, self._window
        )

    def pending(self) -> int:
        return len(self._pending)

    async def enter(self, worker: str, room_id: str) -> bool:
        """Count a connection of ``worker`` in ``room_id``, indexing the room first (first
        local connection there); False, nothing counted, when the worker's lease is gone."""
        key = (worker, room_id)
        async with self._locks.hold(key):
            count = self._counts.get(key, 0)
            if count == 0 and not await self._registry.add_room(worker, room_id):
                return False
            self._counts[key] = count + 1
        return True

    async def join(self, worker: str, room_id: str, command: Join) -> Executed:
        """``enter`` and execute ``command``, a Join of ``worker``'s connection (indexing in
        its commit when folded). NotIndexed: the lease is gone, nothing was recorded. Any
        other error: the departure is recorded too, since a commit whose answer was lost
        may have landed. A spectator's Join may be committed together with others
        (``_watch``)."""
        if command.role is Role.SPECTATOR and command.token is None:
            return await self._watch(worker, room_id, command)
        try:
            return await self._join_now(worker, room_id, command, 1)
        except NotIndexed:
            raise
        except BaseException:
            await self.leave(room_id, command.conn, False)
            raise

    async def _join_now(
        self, worker: str, room_id: str, command: Join | JoinSpectators, count: int
    ) -> Executed:
        """Count ``count`` connections in and execute ``command`` (their Join); NotIndexed
        (nothing recorded, nothing counted) when the worker's lease is gone."""
        key = (worker, room_id)
        if not self.folds:
            for _ in range(count):  # only the first can fail: it indexes the room
                if not await self.enter(worker, room_id):
                    raise NotIndexed()
            return await self._service.execute(room_id, command)
        async with self._locks.hold(key):
            self._counts[key] = self._counts.get(key, 0) + count
            try:
                change = self._registry.index_change(worker, room_id, add=True)
                return await self._service.execute(room_id, command, index=change)
            except NotIndexed:
                for _ in range(count):  # nothing was written
                    await self._count_out(key, unindex=False)
                raise

    def _window(self, key: tuple[str, str]) -> float:
        """How long spectators arriving or leaving under ``key`` are gathered before their
        commit: ``GATHER_WINDOW`` where the worker holds ``GATHER_FROM`` connections of the
        room already (a commit in memory takes no time, so nothing would arrive during
        it), else nothing (a quiet room's spectator is committed at once)."""
        return GATHER_WINDOW if self._counts.get(key, 0) >= GATHER_FROM else 0.0

    async def _watch(self, worker: str, room_id: str, command: Join) -> Executed:
        """A spectator's Join, committed with every other spectator of ``worker`` arriving
        in ``room_id`` while the commit before theirs is under way (rooms.common.gathering): a
        crowd arriving at once is a few commits and ``spectators`` events, not one each,
        each of which would go to everyone already watching. A newcomer in a crowd waits
        up to ``GATHER_WINDOW`` longer for its welcome."""
        key = (worker, room_id)
        group = self._arrivals.add(key, command)
        try:
            return await asyncio.shield(group.done)
        except BaseException:
            if self._arrivals.withdraw(key, group, command):  # never committed
                raise
            # Its commit started: wait for its answer, then record the departure unless
            # the commit is known to have written nothing (a lease that is gone).
            if not group.done.done():  # cancelled while its commit is under way
                await asyncio.wait([group.done])
            if group.done.cancelled() or not isinstance(group.done.exception(), NotIndexed):
                await self.leave(room_id, command.conn, False)  # it may have landed
            raise

    async def _join_spectators(self, key: tuple[str, str], commands: list[Join]) -> Executed:
        worker, room_id = key
        command: Join | JoinSpectators = commands[0]
        if len(commands) > 1:
            command = JoinSpectators(tuple(each.conn for each in commands))
        return await self._join_now(worker, room_id, command, len(commands))

    async def leave(
        self, room_id: str, conn: str, deliberate: bool, *, spectator: bool = False
    ) -> bool:
        """Record that ``conn`` left ``room_id`` and unindex the room after the last local
        connection there. False when it could not be recorded now: retried by ``retry``.
        A spectator's departure is recorded with the others of the worker's spectators
        leaving the room together (one commit and one event, as their arrivals)."""
        worker = worker_of(conn)
        if spectator and worker is not None:
            return await asyncio.shield(self._departures.add((worker, room_id), conn).done)
        return await self._record(room_id, [conn], Leave(conn, deliberate))

    async def _leave_spectators(self, key: tuple[str, str], conns: list[str]) -> bool:
        command: Leave | LeaveSpectators = Leave(conns[0])
        if len(conns) > 1:
            command = LeaveSpectators(tuple(conns))
        return await self._record(key[1], conns, command)

    async def _record(
        self, room_id: str, conns: list[str], command: Leave | LeaveSpectators
    ) -> bool:
        """Commit ``command``, the departure of ``conns`` (one worker's connections)."""
        worker = worker_of(conns[0])
        if self.folds and worker is not None:
            key = (worker, room_id)
            async with self._locks.hold(key):
                last = self._counts.get(key, 0) <= len(conns)
                change = self._registry.index_change(worker, room_id, add=False)
                done, unindexed = await self._depart(room_id, command, change if last else None)
                if done:
                    for _ in conns:
                        await self._count_out(key, unindex=not unindexed)
        else:
            done, _ = await self._depart(room_id, command)
            if done:
                for _ in conns:
                    await self._forget(room_id, worker)
        if not done:
            deliberate = isinstance(command, Leave) and command.deliberate
            for conn in conns:
                if len(self._pending) < self._max_pending:
                    self._pending[conn] = (room_id, deliberate)
                else:  # still indexed: evicted when this worker's lease ends
                    log.error(
                        "presence: too many departures to retry; %s stays in %s", conn, room_id
                    )
        return done

    async def retry(self) -> None:
        """Try the unrecorded departures again (up to RETRIES_PER_BEAT of them), until the
        first that the store cannot take now: the store is out of reach (a partition, Redis
        down), so the others would wait out the same timeout one after the other, and the
        heartbeat that runs this would find its own lease lost only that much later, its
        connections left open and mute meanwhile (their clients resume once it does)."""
        for conn, (room_id, deliberate) in list(self._pending.items())[:RETRIES_PER_BEAT]:
            done, _ = await self._depart(room_id, Leave(conn, deliberate))
            if not done:
                return
            del self._pending[conn]
            await self._forget(room_id, worker_of(conn))

    async def _depart(
        self, room_id: str, command: Leave | LeaveSpectators, unindex: IndexChange | None = None
    ) -> tuple[bool, bool]:
        """Whether nothing more is to be done for this departure, and whether its commit
        unindexed the room (``unindex``: in the same step, or not at all)."""
        try:
            executed = await self._service.execute(room_id, command, index=unindex)
        except RoomError as exc:
            if exc.code in TRANSIENT:
                log.info(
                    "room %s: departure not recorded yet (%s): %s", room_id, command, exc.message
                )
                return False, False
            if exc.code is not ErrorCode.ROOM_NOT_FOUND:
                log.info("room %s: could not record a departure: %s", room_id, exc.message)
        except Exception:
            log.exception("room %s: could not record a departure", room_id)
        else:
            return True, unindex is not None and executed.event is not None
        return True, False

    async def _forget(self, room_id: str, worker: str | None) -> None:
        if worker is None:
            return
        key = (worker, room_id)
        async with self._locks.hold(key):
            await self._count_out(key, unindex=True)

    async def _count_out(self, key: tuple[str, str], *, unindex: bool) -> None:
        """One local connection fewer under ``key`` (whose lock the caller holds); after the
        last, the room is unindexed if ``unindex`` (else its commit did, or nothing had
        indexed it)."""
        count = self._counts.get(key, 0) - 1
        if count > 0:
            self._counts[key] = count
            return
        self._counts.pop(key, None)
        if not unindex:
            return
        worker, room_id = key
        try:
            await self._registry.remove_room(worker, room_id)
        except RoomError as exc:  # harmless: a sweep there would find nothing of ours
            log.info("room %s: left indexed under %s: %s", room_id, worker, exc.message)
