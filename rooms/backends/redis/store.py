"""The Redis Store (``redis://``): rooms shared by every worker on every host.

A room's hash, event log and channel share the hash tag ``{room_id}`` (``keys``), so a room
lives on one Cluster slot. ``create``, ``commit`` and ``events_since`` are Lua scripts
(``scripts``), each ONE atomic round trip; ``commit`` compares the version, writes the room,
appends to the bounded log, sets the TTL (``room_ttl``, or ``finished_ttl`` once the game is
over, or longer for a correspondence room), publishes, and on one Redis may (un)index the room
under a worker (rooms.backends.index) and (un)index its deadline (rooms.backends.due: a Cluster
does that in a second step, and the deadline scanner repairs what a worker dying between the two
leaves). After a correspondence commit the room is recorded under its players. The deadline
index (``due``) and the players' records (``player_games``) are kept by their own modules.
The lobby is kept by ordering and read repair (``lobby``), an unchanged archive is not sent
again (``archive``), and hot commands are auto-pipelined (``batch``), each keeping its own reply
or error.

Redis down or slow: every call raises ``RoomError(unavailable)`` within ``options.timeout`` (the
hot calls within a quarter more, ``deadlines``) and reconnects once Redis is back. Redis
restarted WITHOUT its data: the dataset's epoch (``epoch``) tells a lost room (``load`` raises
``RoomError(room_not_found, "... was lost ...")``) from an expired one (None); nothing ever
recreates a lost room.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from rooms.backends.due import DueChange
from rooms.backends.index import IndexChange, NotIndexed
from rooms.backends.redis.archive import commit_parts, whole
from rooms.backends.redis.batch import LuaScript, RedisCalls, redis_calls
from rooms.backends.redis.connect import RedisClient, RedisOptions, guarded, make_client, text
from rooms.backends.redis.due import RedisDeadlines
from rooms.backends.redis.epoch import Epochs
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.redis.lobby import read_lobby
from rooms.backends.redis.player_games import RedisPlayerGames
from rooms.backends.redis.scripts import COMMIT, CREATE, EVENTS_SINCE, CommitArgs, CommitCode
from rooms.backends.store import StoredRoom, Swapped
from rooms.common.ids import valid_room_id
from rooms.common.jsontext import loads
from rooms.errors import ErrorCode, RoomError

__all__ = ["RedisStore"]

log = logging.getLogger("tictactoe.rooms")

DAY = 24 * 3600.0


def _finished_flag(event: str, finished: bool | None) -> bytes:
    """``1``/``0`` as the caller says whether the game is over, else as the event's status
    says; empty (keep the stored flag) for an event without one."""
    if finished is not None:
        return b"1" if finished else b"0"
    try:
        status = loads(event).get("status")
    except (ValueError, AttributeError):
        return b""
    if not isinstance(status, str):
        return b""
    return b"1" if status == "finished" else b"0"


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


class RedisStore:
    name = "redis"
    _commit_source = COMMIT
    _due_in_commit = True
    """Whether the deadline index changes inside the commit script (not on a Cluster: the
    index is on another slot)."""

    def __init__(
        self,
        url: str = "redis://127.0.0.1:6379/0",
        *,
        client: RedisClient | None = None,
        prefix: str = "ttt",
        options: RedisOptions | None = None,
        log_size: int = 256,
        room_ttl: float = DAY,
        finished_ttl: float = DAY,
        lobby_grace: float = 60.0,
        remember: int = 100_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if isinstance(log_size, bool) or not isinstance(log_size, int) or log_size < 1:
            raise ValueError(f"log_size must be a positive int, not {log_size!r}")
        for label, value in (("room_ttl", room_ttl), ("finished_ttl", finished_ttl)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise ValueError(f"{label} must be a number of seconds above 0, not {value!r}")
        self.url = url
        self.options = options or RedisOptions()
        self._layout = KeyLayout(prefix)
        self._own_client = client is None
        self._client: RedisClient = client if client is not None else make_client(url, self.options)
        self._idle_ms = _ms(room_ttl)
        # The commit's arguments that never change, encoded once instead of at every commit.
        self._log_size = b"%d" % log_size
        self._idle_ttl = b"%d" % self._idle_ms
        self._finished_ttl = b"%d" % _ms(finished_ttl)
        self._grace = lobby_grace
        self._clock = clock
        # The hot commands go through auto-pipelining (``batch``): concurrent calls share
        # round trips; a Cluster's, or all when it is off, keep the plain path.
        self._calls = redis_calls(self._client, auto_pipeline=self.options.auto_pipeline)
        self._create = LuaScript(CREATE)
        self._commit = LuaScript(self._commit_source)
        self._since = LuaScript(EVENTS_SINCE)
        self._deadlines = RedisDeadlines(
            self._client, self._calls, self._layout, self.options.timeout
        )
        self._player_games = RedisPlayerGames(
            self._client, self._calls, self._layout, self.options.timeout
        )
        self._epochs = Epochs(self._client, self._epoch_key, remember=remember)

    @property
    def client(self) -> RedisClient:
        return self._client

    @property
    def calls(self) -> RedisCalls:
        """How the hot commands are sent (auto-pipelined on one Redis: ``batch``)."""
        return self._calls

    @property
    def layout(self) -> KeyLayout:
        return self._layout

    @property
    def epoch(self) -> str | None:
        """The dataset's epoch under the global epoch key (None before ``open``)."""
        return self._epochs.current.get(self._layout.epoch)

    @property
    def losses(self) -> int:
        """How many times this store found that Redis had lost its data."""
        return self._epochs.losses

    def _guard(self, what: str) -> AbstractAsyncContextManager[None]:
        return guarded(what, self.options.timeout)

    # -- lifecycle ------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect and learn the dataset's epoch; RoomError(unavailable) if Redis is down."""
        async with self._guard("open"):
            await self._epochs.confirm(self._layout.epoch)

    async def close(self) -> None:
        await self._calls.aclose()
        if self._own_client:
            await self._client.aclose()

    async def ping(self) -> None:
        async with self._guard("ping"):
            await self._client.ping()
            await self._epochs.confirm(self._layout.epoch)

    # -- the epoch ------------------------------------------------------------------------

    def _epoch_key(self, room_id: str) -> str:
        """The epoch key that dates ``room_id``'s data: one for the whole of one Redis."""
        return self._layout.epoch

    # -- the Store protocol ---------------------------------------------------------------

    async def create(self, room_id: str, data: str, *, listed: bool) -> bool:
        if not valid_room_id(room_id):
            raise RoomError(ErrorCode.BAD_MESSAGE, f"not a room id: {room_id!r:.80}")
        keys = self._layout.room(room_id)
        now = self._clock()
        async with self._calls.guard("create", self.options.timeout):
            # The lobby entry BEFORE the room (``lobby``: never a hidden room). The script
            # reads (or sets) the epoch, so the room is remembered in the dataset it is born
            # in: one round trip for an unlisted room (a Cluster's epoch key is on its slot).
            if listed:
                await self._calls.call("ZADD", self._layout.lobby, "NX", now, room_id)
            fresh, epoch_key = secrets.token_hex(8), self._epoch_key(room_id)
            created, old = await self._calls.script(
                self._create,
                [keys.room, keys.log, epoch_key],
                [data, int(listed), repr(now), self._idle_ms, fresh],
            )
            self._epochs.adopt(epoch_key, old, fresh)
        if created:
            self._epochs.seen(room_id)
        return bool(created)

    async def load(self, room_id: str) -> StoredRoom | None:
        if not valid_room_id(room_id):
            return None
        async with self._calls.guard("load", self.options.timeout):
            epoch_key = self._epoch_key(room_id)
            if epoch_key not in self._epochs.current:  # a cluster slot never touched
                await self._epochs.confirm(epoch_key)
            room_key = self._layout.room(room_id).room
            version, head, archive = await self._calls.call("HMGET", room_key, "v", "d", "g")
            if version is None or head is None:
                await self._epochs.check_lost(room_id)
                return None
        self._epochs.seen(room_id)
        return StoredRoom(int(version), whole(head, archive))

    async def commit(
        self,
        room_id: str,
        expected: int,
        data: str,
        event: str,
        *,
        listed: bool,
        finished: bool | None = None,
        archive_unchanged: bool = False,
        due: DueChange | None = None,
    ) -> bool:
        return (
            await self._commit_script(
                room_id,
                expected,
                data,
                event,
                listed=listed,
                swap=False,
                finished=finished,
                archive_unchanged=archive_unchanged,
                due=due,
            )
        ).committed

    async def swap(
        self,
        room_id: str,
        expected: int,
        data: str,
        event: str,
        *,
        listed: bool,
        finished: bool | None = None,
        archive_unchanged: bool = False,
        publish: bool = True,
        index: IndexChange | None = None,
        due: DueChange | None = None,
    ) -> Swapped:
        """``commit`` in its swap mode: ONE round trip whether it lands or not (a refusal
        brings back the stored version and text). ``index`` changes a worker's index in the
        same step (rooms.backends.index; NotIndexed: the lease is gone, nothing written)."""
        return await self._commit_script(
            room_id,
            expected,
            data,
            event,
            listed=listed,
            swap=True,
            finished=finished,
            archive_unchanged=archive_unchanged,
            publish=publish,
            index=index,
            due=due,
        )

    async def _commit_script(
        self,
        room_id: str,
        expected: int,
        data: str,
        event: str,
        *,
        listed: bool,
        swap: bool,
        finished: bool | None,
        archive_unchanged: bool,
        publish: bool = True,
        index: IndexChange | None = None,
        due: DueChange | None = None,
    ) -> Swapped:
        if isinstance(expected, bool) or not isinstance(expected, int) or expected < 0:
            raise RoomError(ErrorCode.BAD_MESSAGE, f"not a version: {expected!r:.40}")
        if not valid_room_id(room_id):
            return Swapped(False)
        keys = self._layout.room(room_id)
        head, archive, keep = commit_parts(data, archive_unchanged)
        args = CommitArgs(
            room=keys.room,
            log=keys.log,
            expected=expected,
            head=head,
            event=event,
            listed=b"1" if listed else b"0",
            finished=_finished_flag(event, finished),
            log_size=self._log_size,
            idle_ttl=self._idle_ttl,
            finished_ttl=self._finished_ttl,
            channel=keys.channel,
            swap=b"1" if swap else b"",
            archive=archive,
            keep=keep,
            publish=b"1" if publish else b"0",
        )
        if index is not None:  # never on a Cluster (Registry.folds_into): another slot
            args = args.indexing(index)
        if due is not None:
            idle_ms = max(self._idle_ms, _ms(due.keep))
            args = args._replace(idle_ttl=b"%d" % idle_ms)
            if self._due_in_commit:
                args = args.due(self._layout.deadlines, room_id, due.at)
        async with self._calls.guard("commit", self.options.timeout):
            epoch_key = self._epoch_key(room_id)
            if swap and epoch_key not in self._epochs.current:  # as load: date the slot
                await self._epochs.confirm(epoch_key)
            reply = await self._calls.script(self._commit, args.keys(), args.argv())
            if int(reply[0]) == CommitCode.NO_ARCHIVE:  # stored whole in format 1: send it
                head, archive, keep = commit_parts(data, False)
                args = args._replace(head=head, archive=archive, keep=keep)
                reply = await self._calls.script(self._commit, args.keys(), args.argv())
        code, created = CommitCode(int(reply[0])), text(reply[1])
        if code is CommitCode.NO_ROOM:
            return Swapped(False)
        if code is CommitCode.NO_LEASE:
            raise NotIndexed()
        if code is CommitCode.MOVED:
            if len(reply) < 4 or reply[3] is None:
                return Swapped(False)
            self._epochs.seen(room_id)
            stored = whole(reply[3], reply[4] if len(reply) > 4 else None)
            return Swapped(False, StoredRoom(int(reply[2]), stored))
        self._epochs.seen(room_id)
        if code is not CommitCode.DONE:
            await self._relist(room_id, code, created)
        if due is not None:
            await self._after_due(room_id, due)
        return Swapped(True)

    async def _after_due(self, room_id: str, due: DueChange) -> None:
        """A correspondence commit's second step: the players' records (and on a Cluster the
        deadline). Like the lobby's, it must not turn a landed commit into an error: the
        room's next commit writes them again, and the deadline scanner repairs the index."""
        try:
            async with self._calls.guard("deadlines", self.options.timeout):
                if not self._due_in_commit:
                    await self._deadlines.write(room_id, due.at)
                keep = max(self._idle_ms, _ms(due.keep))
                await self._player_games.record(room_id, due.players, keep)
        except RoomError as exc:
            log.warning("room %s: correspondence records not updated: %s", room_id, exc)

    # -- the due index (rooms.backends.due): redis.due and redis.player_games --------------

    async def due_rooms(self, now: float, limit: int) -> list[tuple[str, float]]:
        return await self._deadlines.due_rooms(now, limit)

    async def repair_due(self, room_id: str, seen: float, at: float | None) -> bool:
        return await self._deadlines.repair_due(room_id, seen, at)

    async def player_rooms(self, player_id: str, limit: int) -> list[str]:
        return await self._player_games.player_rooms(player_id, limit)

    async def forget_player_room(self, player_id: str, room_id: str) -> None:
        await self._player_games.forget_player_room(player_id, room_id)

    async def _relist(self, room_id: str, code: CommitCode, created: str) -> None:
        """The lobby's second step. It must not turn a landed commit into an error: when
        Redis fails here, the lobby's read repair removes the leftover entry."""
        try:
            async with self._calls.guard("lobby", self.options.timeout):
                if code is CommitCode.UNLISTED:
                    await self._calls.call("ZREM", self._layout.lobby, room_id)
                else:
                    score = float(created) if created else self._clock()
                    await self._calls.call("ZADD", self._layout.lobby, "NX", score, room_id)
        except RoomError as exc:
            log.warning("room %s: lobby not updated (read repair will): %s", room_id, exc)

    async def events_since(self, room_id: str, version: int) -> list[str] | None:
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            return None
        if not valid_room_id(room_id):
            return None
        keys = self._layout.room(room_id)
        async with self._calls.guard("events_since", self.options.timeout):
            texts = await self._calls.script(self._since, [keys.room, keys.log], [version])
        if texts is None:
            return None
        return [text(item) for item in texts]

    async def listed(self, limit: int) -> list[StoredRoom]:
        async with self._guard("listed"):
            return await read_lobby(
                self._client, self._layout, limit, now=self._clock(), grace=self._grace
            )
