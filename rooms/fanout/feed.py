"""One connection's view of a room's events: in version order, each exactly once.

The hub hands a feed every event the bus carries; the feed forwards an event only when it
is the next version. Until the connection's snapshot is sent (``start``) events wait in a
bounded buffer; events at or below the snapshot version are dropped (subscribe first, then
read, then drop). A gap (the bus dropped something) is repaired from the store's event log,
or, when the log no longer reaches back, by sending the full snapshot as a ``state``; a
repair the store cannot answer now is tried again, keeping what waits.

``answer`` sends the connection's answer to a command it sent together with the event that
command committed, in one write, when that event is the connection's next; the copy the bus
brings is dropped as one already sent. While the command is under way (``expect`` until
``answer`` or ``release``) the events the bus brings wait, so that the command's own event,
which over Redis often comes back before the commit's answer, still goes with the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from rooms.common import metrics
from rooms.errors import ErrorCode, RoomError
from rooms.protocol.messages import dumps, event_version, state_message
from rooms.service import RoomService

__all__ = ["Feed"]

log = logging.getLogger("tictactoe.rooms")

RETRIED = frozenset({ErrorCode.UNAVAILABLE, ErrorCode.BUSY})
"""A repair failing with these is tried again (the store will answer), not given up."""
REPAIR_PAUSE = 0.05
REPAIR_PAUSE_MAX = 1.0
"""Seconds before a failed repair is tried again, doubling up to the most."""


class Feed:
    def __init__(
        self,
        room_id: str,
        service: RoomService,
        send: Callable[[str], object],
        *,
        buffer: int = 1024,
        send_all: Callable[[list[str]], object] | None = None,
    ) -> None:
        self.room_id = room_id
        self._service = service
        self._send = send
        self._send_all = send_all
        """Sends texts in one write (None: one ``send`` after the other): a command's answer
        with its event, or the events a crowd's listener is owed at once."""
        self._buffer = buffer
        self.version: int | None = None
        """The last version this connection was sent (None until its snapshot)."""
        self._pending: list[tuple[int, str]] = []
        self._lost = False  # the buffer overflowed before start: resynchronise
        self._repair: asyncio.Task[None] | None = None
        self._expecting = False  # a command of this connection is under way: events wait
        self._closed = False
        self.repairs = 0
        self.audience: str | None = None
        """Whose chat this connection receives (``players``/``spectators``), once joined."""

    # -- input from the hub ---------------------------------------------------------------

    def deliver(self, version: int, text: str) -> None:
        if self._owed(version, text):
            self._send(text)

    def deliver_all(self, events: list[tuple[int, str]]) -> None:
        """``deliver`` of each (version, text) in turn, what is sent of them in one write
        (the hub hands a crowd's listener every event it is owed at once)."""
        texts = [text for version, text in events if self._owed(version, text)]
        if len(texts) > 1 and self._send_all is not None:
            self._send_all(texts)
            return
        for text in texts:
            self._send(text)

    def _owed(self, version: int, text: str) -> bool:
        """Whether the event is this connection's next, to send now (``version`` then
        counts as sent); if not, it is held or dropped as ``deliver`` says (see the module)."""
        if self._closed:
            return False
        if self.version is None or self._repair is not None or self._expecting:
            self._hold(version, text)
            return False
        if version <= self.version:
            return False
        if version == self.version + 1:
            self.version = version
            return True
        self._hold(version, text)
        self._start_repair()
        return False

    def expect(self) -> None:
        """A command of this connection is under way: hold the bus's events until its
        ``answer`` (or ``release``, when it fails), so that its own event goes with it."""
        self._expecting = True

    def release(self) -> None:
        """The command under way ended without an answer: send what waited, in order."""
        if self._expecting:
            self._expecting = False
            self._resume()

    def answer(self, reply: str, version: int | None, event: str | None) -> None:
        """Send ``reply``, this connection's answer to a command that committed ``event`` at
        ``version`` (both None: it committed nothing), followed by the event when it is the
        next one this connection is owed; then whatever waited meanwhile, in order (the
        bus's copy of ``event`` among it is dropped as already sent)."""
        self._expecting = False
        if (
            event is None
            or version is None
            or self._closed
            or self._repair is not None
            or self.version is None
            or version != self.version + 1
        ):
            self._send(reply)
        else:
            self.version = version
            if self._send_all is not None:
                self._send_all([reply, event])
            else:
                self._send(reply)
                self._send(event)
        self._resume()

    def _resume(self) -> None:
        """Send what waited for a command's answer, unless a repair or the snapshot still
        holds it (they drain it themselves)."""
        if self._pending and self._repair is None and self.version is not None:
            self._drain()

    def deliver_chat(self, text: str) -> None:
        """A chat line of this connection's audience (the hub filters): sent as it comes,
        only once the connection's welcome went out (it sees lines sent while joined)."""
        if not self._closed and self.version is not None:
            self._send(text)

    def _hold(self, version: int, text: str) -> None:
        if len(self._pending) >= self._buffer:
            self._pending.clear()
            self._lost = True
        self._pending.append((version, text))

    # -- snapshots ------------------------------------------------------------------------

    def start(self, version: int) -> None:
        """The connection was just sent the snapshot at ``version``; forward what follows."""
        self.version = version
        self._drain()

    async def send_state(self, ref: str | None = None) -> None:
        """Send the full snapshot, never older than what this connection already has."""
        for _ in range(8):
            state = await self._service.snapshot(self.room_id)
            if self.version is None or state["version"] >= self.version:
                break
        self._send(dumps(state_message(state, ref)))
        if self.version is not None:
            self.version = max(self.version, state["version"])
            self._drain()

    # -- repairs --------------------------------------------------------------------------

    def _drain(self) -> None:
        pending, self._pending = sorted(self._pending), []
        if self._lost:
            self._lost = False
            self._pending = pending
            self._start_repair()
            return
        for version, text in pending:
            self.deliver(version, text)

    def _start_repair(self) -> None:
        if self._repair is None and not self._closed:
            self.repairs += 1
            metrics.sink.resync("gap")
            self._repair = asyncio.create_task(self._fill(), name=f"feed-repair:{self.room_id}")

    async def _fill(self) -> None:
        assert self.version is not None
        before = self.version
        pause = REPAIR_PAUSE
        try:
            while True:
                try:
                    await self._fill_once()
                    break
                except RoomError as exc:
                    if exc.code not in RETRIED:  # the room is gone: nothing will come
                        log.info("room %s: cannot repair a feed: %s", self.room_id, exc.message)
                        break
                # The store is out of reach for now (Redis failing over, a partition
                # healing): what waits, the game's last event perhaps, is kept and the
                # repair tried again; no later event may ever come to start another.
                log.info("room %s: a feed's repair waits for the store", self.room_id)
                await asyncio.sleep(pause)
                pause = min(pause * 2, REPAIR_PAUSE_MAX)
        finally:
            self._repair = None
        if self.version == before:  # no progress (the room is gone): give up on what waits
            self._pending.clear()
        if not self._closed:
            self._drain()

    async def _fill_once(self) -> None:
        assert self.version is not None
        texts = await self._service.events_since(self.room_id, self.version)
        if texts is None:
            state = await self._service.snapshot(self.room_id)
            self._send(dumps(state_message(state)))
            self.version = max(self.version, state["version"])
            return
        for text in texts:
            version = event_version(text)
            if version == self.version + 1:
                self.version = version
                self._send(text)

    async def settled(self) -> None:
        """Until no repair is under way (one may start another as it ends)."""
        while self._repair is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(self._repair)

    def close(self) -> None:
        self._closed = True
        self._pending.clear()
        if self._repair is not None:
            self._repair.cancel()

    async def wait_closed(self) -> None:
        if self._repair is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._repair
