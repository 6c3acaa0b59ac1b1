"""The Lua scripts of the Redis store: each runs atomically in ONE round trip (EVALSHA).

Every script touches only one room's keys (sharing the ``{room_id}`` hash tag, ``keys``; CREATE
also the epoch key, which a Cluster keeps on the room's slot), so it runs unchanged on a
Cluster. The one exception, for one Redis only: a commit may also index or unindex its room
under a worker (rooms.backends.index), and a correspondence room's commit may (un)index its
deadline (rooms.backends.due), on other slots; the Cluster store never asks for either.
``COMMIT``'s keys and arguments are built by name (``CommitArgs``). Scripts are sent by SHA1,
auto-pipelined with the other hot commands (``batch``); on ``NOSCRIPT`` (Redis restarted or
flushed) the script is loaded and the call repeated, transparently (on a Cluster through
redis-py's Script objects). Versions are compared as numbers and written with ``%d``, so ``"7"``
never becomes ``"7.0"`` through Lua's doubles.

A room's hash keeps ``d``, its JSON object, and ``g``, its archive (absent when empty;
``archive``). The commit writes ``g`` only when the archive changed, and when told to keep it
publishes the room without it (``framed_head``). A ``d`` holding a newline is a room written
whole (by CREATE or an older worker): its own archive wins over any ``g``, and the first commit
that keeps the archive moves it into ``g``.
"""

from __future__ import annotations

from enum import IntEnum
from operator import attrgetter
from typing import Any, NamedTuple

from rooms.backends.index import IndexChange
from rooms.backends.redis.resp import Arg

__all__ = [
    "COMMIT",
    "COMMIT_SHARDED",
    "CREATE",
    "EVENTS_SINCE",
    "CommitArgs",
    "CommitCode",
]


class CommitCode(IntEnum):
    """What the commit script did; the lobby's second step depends on it."""

    NO_LEASE = -3  # told to index the room, but the worker's lease is gone: nothing written
    NO_ARCHIVE = -2  # told to keep the archive, but none is stored apart: nothing written
    NO_ROOM = -1
    MOVED = 0  # the stored version is not the expected one: nothing written
    DONE = 1  # committed, the listing did not change
    UNLISTED = 2  # committed, and the room left the listing (it finished)
    LISTED = 3  # committed, and the room joined the listing


CREATE = """
-- KEYS: room, log, epoch.  ARGV: data, listed (1/0), created (seconds), ttl (ms), a fresh
-- epoch.  {created (1/0), the epoch before (nil: there was none, the fresh one is set)}:
-- the dataset's epoch is read, or set, whether the room is created or not.
local epoch = redis.call('SET', KEYS[3], ARGV[5], 'NX', 'GET')
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {0, epoch}
end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[1], 'v', '0', 'd', ARGV[1], 'c', ARGV[3], 'l', ARGV[2], 'f', '0')
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {1, epoch}
"""


class CommitArgs(NamedTuple):
    """The KEYS and ARGV of one ``COMMIT``, by name: one field per slot, named as the script's
    locals name them (a test holds the two together), each holding what the script reads
    there. ``keys`` and ``argv`` list them in the script's order, the one place that knows it.

    A NamedTuple, not a frozen dataclass: it is built at every move, and its constructor is
    several times cheaper. ``_FIXED_ARGV`` and ``_INDEX_ARGV`` name the ARGV in order. The
    store's limits (``log_size`` and the two TTLs) are encoded once by the store; the flags
    are ``b"1"``/``b"0"``."""

    room: str
    """The room's hash (rooms.backends.redis.keys)."""
    log: str
    """The room's event log."""
    expected: int
    """The stored version this commit replaces; anything else refuses it."""
    head: str
    """The room's JSON object, its text up to the first newline (``archive``)."""
    event: str
    """Appended to the log and published."""
    listed: bytes
    """Whether the room is in the lobby after this commit."""
    finished: bytes
    """Whether its game is over (the longer TTL); ``b""`` keeps the stored flag."""
    log_size: bytes
    """Events the log keeps."""
    idle_ttl: bytes
    """Milliseconds the room lives untouched while its game is on..."""
    finished_ttl: bytes
    """...and once it is over."""
    channel: str
    """Where the event is published."""
    swap: bytes
    """``b"1"``: publish the event framed with the room, and answer a refusal with the
    stored room (``Store.swap``); ``b""``: a plain ``commit``."""
    archive: str
    """The room's text after the first newline, written as its archive; ``""`` for none."""
    keep: bytes
    """The game number of the stored archive when it is the room's, unchanged, so nothing
    is written; ``b""`` writes ``archive``."""
    publish: bytes = b"1"
    """``b"1"``: publish the event; ``b"0"``: only the committing worker listens to the
    room, and it delivers the event itself (rooms.service)."""
    lease: str = ""
    """With an index change (``indexing``): the worker's lease, which must still exist..."""
    rooms: str = ""
    """...and its index of rooms."""
    index_change: bytes = b""
    """``b"a"`` indexes the room, ``b"r"`` unindexes it; ``b""`` sends no index change."""
    index_room: str = ""
    """The room's id, as the index holds it."""
    index_keep: int = 0
    """Milliseconds the index lives past a change."""
    deadlines: str = ""
    """With a due change (``due``): the sorted set of rooms by deadline (rooms.backends.due)."""
    due_change: bytes = b""
    """``b"s"`` sets the room's deadline there, ``b"x"`` removes it; ``b""`` sends none (and
    then neither the index change's slots unless it has one)."""
    due_room: str = ""
    """The room's id, as the deadlines hold it."""
    due_at: str = ""
    """The deadline, in seconds since the epoch (``repr`` of the float)."""

    def indexing(self, change: IndexChange) -> CommitArgs:
        """These arguments with ``change`` made in the same step."""
        lease, rooms = change.keys
        return self._replace(
            lease=lease,
            rooms=rooms,
            index_change=b"a" if change.add else b"r",
            index_room=change.room_id,
            index_keep=change.keep_ms,
        )

    def due(self, deadlines: str, room_id: str, at: float | None) -> CommitArgs:
        """These arguments with the room's deadline set to ``at`` (None: removed) in the same
        step; the index change's slots are sent too (empty without one)."""
        return self._replace(
            deadlines=deadlines,
            due_change=b"x" if at is None else b"s",
            due_room=room_id,
            due_at="" if at is None else repr(at),
        )

    @classmethod
    def read(cls, keys: list[str], argv: list[Arg]) -> CommitArgs:
        """The arguments ``keys()`` and ``argv()`` listed, by name again (for tests and
        tools that look at what was sent)."""
        fixed = len(_FIXED_ARGV)
        named: dict[str, Any] = dict(zip(("room", "log"), keys[:2], strict=True))
        named.update(zip(_FIXED_ARGV, argv[:fixed], strict=True))
        if len(keys) > 2:
            named.update(zip(("lease", "rooms"), keys[2:4], strict=True))
            named.update(zip(_INDEX_ARGV, argv[fixed : fixed + 3], strict=True))
        if len(keys) > 4:
            named["deadlines"] = keys[4]
            named.update(zip(_DUE_ARGV, argv[fixed + 3 :], strict=True))
        return cls(**named)

    def keys(self) -> list[str]:
        """The script's KEYS, in its order."""
        if self.due_change:
            return [self.room, self.log, self.lease, self.rooms, self.deadlines]
        if self.index_change:
            return [self.room, self.log, self.lease, self.rooms]
        return [self.room, self.log]

    def argv(self) -> list[Arg]:
        """The script's ARGV, in its order."""
        argv: list[Arg] = list(_fixed_argv(self))
        if self.index_change or self.due_change:
            argv += _index_argv(self)
        if self.due_change:
            argv += _due_argv(self)
        return argv


_FIXED_ARGV = (
    "expected",
    "head",
    "event",
    "listed",
    "finished",
    "log_size",
    "idle_ttl",
    "finished_ttl",
    "channel",
    "swap",
    "archive",
    "keep",
    "publish",
)
_INDEX_ARGV = ("index_change", "index_room", "index_keep")
_DUE_ARGV = ("due_change", "due_room", "due_at")
"""The ARGV names in the script's order: the one place that knows it (keys: ``keys``)."""
_fixed_argv = attrgetter(*_FIXED_ARGV)
_index_argv = attrgetter(*_INDEX_ARGV)
_due_argv = attrgetter(*_DUE_ARGV)


COMMIT = """
-- KEYS and ARGV, one slot a line, named as CommitArgs names them (and says what they hold).
-- The index change's two keys and three arguments come only with one (rooms.backends.index), or
-- empty with a due change, whose key and three arguments come last (rooms.backends.due).
local room = KEYS[1]
local log = KEYS[2]
local lease = KEYS[3]
local rooms = KEYS[4]
local deadlines = KEYS[5]
local expected = tonumber(ARGV[1])
local head = ARGV[2]
local event = ARGV[3]
local listed = ARGV[4]
local finished = ARGV[5]
local log_size = tonumber(ARGV[6])
local idle_ttl = ARGV[7]
local finished_ttl = ARGV[8]
local channel = ARGV[9]
local swap = ARGV[10] == '1'
local archive = ARGV[11] or ''  -- absent: written whole, as before
local keep = ARGV[12] or ''
local publish = ARGV[13] ~= '0'  -- absent: published, as before
local index_change = ARGV[14] or ''
local index_room = ARGV[15]
local index_keep = ARGV[16]
local due_change = ARGV[17] or ''
local due_room = ARGV[18]
local due_at = ARGV[19]
-- A swap answers a refusal with the stored version and the room's two fields, and
-- publishes the event framed with the room (rooms.backends.store.framed / framed_head). An index
-- change is made with the commit or not at all; 'a' refuses (-3) when the lease is gone.
local now = redis.call('HMGET', room, 'v', 'l', 'f', 'c')
if not now[1] then
  return {-1, ''}
end
if tonumber(now[1]) ~= expected then
  if swap then
    local stored = redis.call('HMGET', room, 'd', 'g')
    return {0, '', now[1], stored[1], stored[2]}
  end
  return {0, ''}
end
if index_change == 'a' and redis.call('EXISTS', lease) == 0 then
  return {-3, ''}
end
if keep ~= '' then
  local whole = redis.call('HGET', room, 'd') or ''
  local cut = string.find(whole, '\\n', 1, true)
  if cut then
    redis.call('HSET', room, 'g', string.sub(whole, cut + 1))
  elseif redis.call('HEXISTS', room, 'g') == 0 then
    return {-2, ''}
  end
elseif archive ~= '' then
  redis.call('HSET', room, 'g', archive)
else
  redis.call('HDEL', room, 'g')
end
if finished == '' then
  finished = now[3] or '0'
end
redis.call('HSET', room, 'v', string.format('%d', expected + 1), 'd', head,
           'l', listed, 'f', finished)
redis.call('RPUSH', log, event)
redis.call('LTRIM', log, -log_size, -1)
local ttl = idle_ttl
if finished == '1' then
  ttl = finished_ttl
end
redis.call('PEXPIRE', room, ttl)
redis.call('PEXPIRE', log, ttl)
if publish then
  local message = event
  if swap then
    local tag = string.format('%d', expected + 1)
    local text = head
    if keep ~= '' then
      tag = tag .. '/' .. keep
    elseif archive ~= '' then
      text = text .. '\\n' .. archive
    end
    message = '#' .. tag .. '\\n' .. event .. '\\n' .. text
  end
  redis.call('PUBLISH', channel, message)
end
if index_change == 'a' then
  redis.call('SADD', rooms, index_room)
  redis.call('PEXPIRE', rooms, index_keep)
elseif index_change == 'r' then
  redis.call('SREM', rooms, index_room)
end
if due_change == 's' then
  redis.call('ZADD', deadlines, due_at, due_room)
elseif due_change == 'x' then
  redis.call('ZREM', deadlines, due_room)
end
local code = 1
if (now[2] or '0') ~= listed then
  if listed == '1' then code = 3 else code = 2 end
end
return {code, now[4] or ''}
"""

_PUBLISH = "  redis.call('PUBLISH', channel, message)"
assert COMMIT.count(_PUBLISH) == 1
COMMIT_SHARDED = COMMIT.replace(_PUBLISH, "  redis.call('SPUBLISH', channel, message)")
"""The commit for a Redis Cluster: SPUBLISH sends the event on the shard that owns the
room's slot (the channel shares the room's hash tag), where the workers' SSUBSCRIBE
listens; a plain PUBLISH would be broadcast to every node of the cluster."""

EVENTS_SINCE = """
-- KEYS: room, log.  ARGV: version.  nil when the log cannot answer, else the event texts.
local current = redis.call('HGET', KEYS[1], 'v')
if not current then
  return false
end
current = tonumber(current)
local since = tonumber(ARGV[1])
if since > current or since < 0 then
  return false
end
if since == current then
  return {}
end
local held = redis.call('LLEN', KEYS[2])
local wanted = current - since
if wanted > held then
  return false
end
return redis.call('LRANGE', KEYS[2], held - wanted, -1)
"""
