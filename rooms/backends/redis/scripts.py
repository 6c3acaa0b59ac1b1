"""The Lua scripts of the Redis store: each runs atomically in ONE round trip (EVALSHA).

Every script touches only one room's keys (sharing the ``{room_id}`` hash tag, ``keys``; CREATE
also the epoch key, which a Cluster keeps on the room's slot), so it runs unchanged on a
Cluster. The one exception, for one Redis only: a commit may also index or unindex its room
under a worker (rooms.backends.index), on another slot; the Cluster store never asks for it.
Scripts are sent by SHA1, auto-pipelined with the other hot commands (``batch``); on
``NOSCRIPT`` (Redis restarted or flushed) the script is loaded and the call repeated,
transparently (on a Cluster through redis-py's Script objects). Versions are compared as numbers
and written with ``%d``, so ``"7"`` never becomes ``"7.0"`` through Lua's doubles.

A room's hash keeps ``d``, its JSON object, and ``g``, its archive (absent when empty;
``archive``). The commit writes ``g`` only when the archive changed, and when told to keep it
publishes the room without it (``framed_head``). A ``d`` holding a newline is a room written
whole (by CREATE or an older worker): its own archive wins over any ``g``, and the first commit
that keeps the archive moves it into ``g``.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["COMMIT", "COMMIT_SHARDED", "CREATE", "EVENTS_SINCE", "CommitCode"]


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

COMMIT = """
-- KEYS: room, log; with an index change, also a worker's lease and index of rooms.
-- ARGV: expected, head, event, listed (1/0), finished (1/0, or '' to keep), log size,
--       idle ttl (ms), finished ttl (ms), channel, swap (1, or '' for a plain commit),
--       archive (the text after the head's newline, '' for none), keep (a game number:
--       the stored archive is the room's, unchanged; '' to write ARGV[11]); and, for an
--       index change (rooms.backends.index): 'a' (index) or 'r' (unindex), the room id,
--       the index's keep (ms)
-- A swap answers a refusal with the stored version and the room's two fields, and
-- publishes the event framed with the room (rooms.backends.store.framed / framed_head). An index
-- change is made with the commit or not at all; 'a' refuses (-3) when the lease is gone.
local room, log = KEYS[1], KEYS[2]
local now = redis.call('HMGET', room, 'v', 'l', 'f', 'c')
if not now[1] then
  return {-1, ''}
end
local expected = tonumber(ARGV[1])
local swap = ARGV[10] == '1'
if tonumber(now[1]) ~= expected then
  if swap then
    local stored = redis.call('HMGET', room, 'd', 'g')
    return {0, '', now[1], stored[1], stored[2]}
  end
  return {0, ''}
end
local index = ARGV[13] or ''
if index == 'a' and redis.call('EXISTS', KEYS[3]) == 0 then
  return {-3, ''}
end
local archive, keep = ARGV[11] or '', ARGV[12] or ''  -- absent: written whole, as before
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
local finished = ARGV[5]
if finished == '' then
  finished = now[3] or '0'
end
redis.call('HSET', room, 'v', string.format('%d', expected + 1), 'd', ARGV[2],
           'l', ARGV[4], 'f', finished)
redis.call('RPUSH', log, ARGV[3])
redis.call('LTRIM', log, -tonumber(ARGV[6]), -1)
local ttl = ARGV[7]
if finished == '1' then
  ttl = ARGV[8]
end
redis.call('PEXPIRE', room, ttl)
redis.call('PEXPIRE', log, ttl)
local message = ARGV[3]
if swap then
  local tag = string.format('%d', expected + 1)
  local text = ARGV[2]
  if keep ~= '' then
    tag = tag .. '/' .. keep
  elseif archive ~= '' then
    text = text .. '\\n' .. archive
  end
  message = '#' .. tag .. '\\n' .. ARGV[3] .. '\\n' .. text
end
redis.call('PUBLISH', ARGV[9], message)
if index == 'a' then
  redis.call('SADD', KEYS[4], ARGV[14])
  redis.call('PEXPIRE', KEYS[4], ARGV[15])
elseif index == 'r' then
  redis.call('SREM', KEYS[4], ARGV[14])
end
local code = 1
if (now[2] or '0') ~= ARGV[4] then
  if ARGV[4] == '1' then code = 3 else code = 2 end
end
return {code, now[4] or ''}
"""

_PUBLISH = "redis.call('PUBLISH', ARGV[9], message)"
assert COMMIT.count(_PUBLISH) == 1
COMMIT_SHARDED = COMMIT.replace(_PUBLISH, "redis.call('SPUBLISH', ARGV[9], message)")
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
