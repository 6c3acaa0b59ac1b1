"""Web Push at the edge: the VAPID key, the sender (pywebpush) and a worker's dispatch.

The subscriptions and who to notify are the rooms layer's (rooms.push); here they become
encrypted, signed HTTP requests to the push services, off the move path. The HTTP routes
that subscribe a browser are ``server.api.push``; the browser's side is ``static/sw.js`` and
``static/js/net/push.js``.
"""

from __future__ import annotations

from .dispatch import PushDispatch
from .sender import Delivery, PushSender
from .vapid import VapidKey

__all__ = ["Delivery", "PushDispatch", "PushSender", "VapidKey"]
