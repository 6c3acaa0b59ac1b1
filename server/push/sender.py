"""One push to one browser: encrypted (RFC 8291, aes128gcm), signed (VAPID, RFC 8292) and
posted by pywebpush over one shared aiohttp session, within a timeout.

The answer is what the dispatch needs to know: delivered, gone (the push service answered
404 or 410: the browser unsubscribed or the subscription expired, so it is dropped), or
failed (anything else: the push service refused or was unreachable, or the time ran out;
the subscription is kept, and this notice is not retried: a later one will be sent).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from enum import StrEnum
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from rooms.push import PushSubscription

from .vapid import VapidKey

if TYPE_CHECKING:
    import aiohttp

__all__ = ["Delivery", "PushSender"]

log = logging.getLogger("tictactoe.push")

MESSAGE_TTL = 24 * 3600
"""Seconds a push service keeps a message for a browser that is offline: a turn told a day
late is still worth telling (a correspondence move takes days)."""
CLAIMS_LIFETIME = 12 * 3600
"""Seconds a VAPID token is valid (RFC 8292: at most 24 hours)."""


class Delivery(StrEnum):
    SENT = "sent"
    GONE = "gone"
    FAILED = "failed"


class PushSender:
    def __init__(self, key: VapidKey, *, contact: str, timeout: float = 10.0) -> None:
        self.key = key
        self._signer = key.signer()
        self._contact = contact
        self._timeout = timeout
        self._session: aiohttp.ClientSession | None = None

    def _claims(self, endpoint: str) -> dict[str, Any]:
        parts = urlsplit(endpoint)
        return {  # RFC 8292: the push service's origin, an expiry, and whom to contact
            "aud": f"{parts.scheme}://{parts.netloc}",
            "exp": int(time.time()) + CLAIMS_LIFETIME,
            "sub": self._contact,
        }

    async def send(self, subscription: PushSubscription, payload: dict[str, Any]) -> Delivery:
        # imported on the first push, not with the server: aiohttp and pywebpush are about a
        # fifth of a worker's start-up imports, and most workers never send a push
        import aiohttp
        from pywebpush import WebPushException, webpush_async

        if self._session is None:  # one session a sender, opened in the running loop
            self._session = aiohttp.ClientSession()
        data = json.dumps(payload, separators=(",", ":"))
        try:
            async with asyncio.timeout(self._timeout):
                await webpush_async(
                    subscription.to_info(),
                    data,
                    vapid_private_key=self._signer,
                    vapid_claims=self._claims(subscription.endpoint),
                    ttl=MESSAGE_TTL,
                    timeout=self._timeout,
                    aiohttp_session=self._session,
                )
        except WebPushException as exc:
            status = exc.status_code
            if status in (404, 410):
                return Delivery.GONE
            log.warning("push: %s answered %s", _host(subscription), status)
            return Delivery.FAILED
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            log.warning("push: %s unreachable: %s", _host(subscription), type(exc).__name__)
            return Delivery.FAILED
        except ValueError:  # keys no message can be encrypted to (not a curve point)
            return Delivery.GONE
        return Delivery.SENT

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


def _host(subscription: PushSubscription) -> str:
    """The push service, for a log line: never the endpoint's path (it is a capability)."""
    return urlsplit(subscription.endpoint).netloc
