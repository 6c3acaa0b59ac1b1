"""Web Push for players who are away: their subscriptions, and who a commit should notify.

``PushBook`` keeps each identity's browsers' subscriptions and the server's VAPID key
(memory here, Redis in ``rooms.backends.redis.push``); ``notices_of`` says, from a room as
just committed, which absent players it gave the turn or told the end (sans-I/O). Sending
is the server's (server.push): encryption and the push services' HTTP are the edge's.
"""

from __future__ import annotations

from rooms.push.book import MAX_PER_PLAYER, MemoryPushBook, PushBook
from rooms.push.notices import Notice, NoticeKind, notices_of
from rooms.push.subscription import PushSubscription, b64url_bytes, subscription_of

__all__ = [
    "MAX_PER_PLAYER",
    "MemoryPushBook",
    "Notice",
    "NoticeKind",
    "PushBook",
    "PushSubscription",
    "b64url_bytes",
    "notices_of",
    "subscription_of",
]
