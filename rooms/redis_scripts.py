"""The Lua scripts of the Redis store: each runs atomically in ONE round trip (EVALSHA).

Every script touches only the keys of one room (``KEYS`` share the ``{room_id}`` hash tag,
see redis_keys), so it runs unchanged on a Redis Cluster. They are sent by SHA1 (EVALSHA),
auto-pipelined with the worker's other hot commands (rooms.redis_batch), and on
``NOSCRIPT`` (a restarted or flushed Redis forgot them) the script is loaded again and that
call repeated, transparently; on a Cluster through redis-py's Script objects, which do the
same one command at a time.

Versions are compared as numbers and written with ``%d`` so that ``"7"`` never becomes
``"7.0"`` through Lua's doubles.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["COMMIT", "COMMIT_SHARDED", "CREATE", "EVENTS_SINCE", "CommitCode"]


class CommitCode(IntEnum):
    """What the commit script did; the lobby's second step depends on it."""

    NO_ROOM = -1
    MOVED = 0  # the stored version is not the expected one: nothing written
    DONE = 1  # committed, the listing did not change
    UNLISTED = 2  # committed, and the room left the listing (it finished)
    LISTED = 3  # committed, and the room joined the listing


CREATE = """
-- KEYS: room, log.  ARGV: data, listed (1/0), created (seconds), ttl (ms)
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[1], 'v', '0', 'd', ARGV[1], 'c', ARGV[3], 'l', ARGV[2], 'f', '0')
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
"""

COMMIT = """
-- KEYS: room, log.
-- ARGV: expected, data, event, listed (1/0), finished (1/0, or '' to keep), log size,
--       idle ttl (ms), finished ttl (ms), channel, swap (1, or '' for a plain commit)
-- A swap answers a refusal with the stored version and room text, and publishes the
-- event framed with the room text (rooms.store.framed) for the workers' caches.
local room, log = KEYS[1], KEYS[2]
local now = redis.call('HMGET', room, 'v', 'l', 'f', 'c')
if not now[1] then
  return {-1, ''}
end
local expected = tonumber(ARGV[1])
local swap = ARGV[10] == '1'
if tonumber(now[1]) ~= expected then
  if swap then
    return {0, '', now[1], redis.call('HGET', room, 'd')}
  end
  return {0, ''}
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
  message = '#' .. string.format('%d', expected + 1) .. '\\n' .. ARGV[3] .. '\\n' .. ARGV[2]
end
redis.call('PUBLISH', ARGV[9], message)
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
