"""A browser's push subscription, as ``PushSubscription.toJSON()`` gives it, checked.

What a browser hands over after ``pushManager.subscribe``: the push service's ``endpoint``
URL and the two keys the message is encrypted to (RFC 8291): ``p256dh``, the browser's P-256
public key (65 bytes, uncompressed), and ``auth``, a 16-byte secret. The server later POSTs
to the endpoint, so only ``https://`` is accepted (a plain ``http://`` one only when the
operator allows it, for a push service on the same machine); anything else is a typed
``invalid_subscription`` naming what is wrong.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from rooms.errors import ErrorCode, RoomError

__all__ = ["MAX_ENDPOINT", "PushSubscription", "b64url_bytes", "subscription_of"]

MAX_ENDPOINT = 2048
"""The longest endpoint accepted (the push services' own are under 300 characters)."""


@dataclass(frozen=True, slots=True)
class PushSubscription:
    endpoint: str
    p256dh: str
    """The browser's public key, base64url as the browser gave it."""
    auth: str
    """The browser's authentication secret, base64url."""

    def to_info(self) -> dict[str, Any]:
        """The shape a Web Push library takes (and ``toJSON()`` gives)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def __repr__(self) -> str:  # the endpoint is a capability: anyone holding it may push
        return f"PushSubscription(endpoint={self.endpoint[:40]!r}..., keys=<keys>)"


def b64url_bytes(value: str) -> bytes:
    """``value`` decoded as base64url with or without padding; ValueError when it is not."""
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise ValueError(f"{value[:20]!r} is not base64url") from None


def _refused(message: str, field: str) -> RoomError:
    return RoomError(ErrorCode.INVALID_SUBSCRIPTION, message, field=field)


def _key(keys: dict[str, Any], name: str, size: int) -> str:
    value = keys.get(name)
    if not isinstance(value, str) or not 1 <= len(value) <= 200:
        raise _refused(f"keys.{name}: a base64url string is required", f"keys.{name}")
    try:
        raw = b64url_bytes(value.strip())
    except ValueError as exc:
        raise _refused(f"keys.{name}: {exc}", f"keys.{name}") from None
    if len(raw) != size or (name == "p256dh" and raw[0] != 4):
        what = "an uncompressed P-256 point" if name == "p256dh" else "a secret"
        raise _refused(
            f"keys.{name}: {what} of {size} bytes is required, got {len(raw)}", f"keys.{name}"
        )
    return value.strip()


def subscription_of(data: dict[str, Any], *, allow_http: bool = False) -> PushSubscription:
    """The subscription in a request body (``endpoint``, ``keys``; ``expirationTime`` is
    ignored); RoomError(invalid_subscription) with the field to blame."""
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not 1 <= len(endpoint) <= MAX_ENDPOINT:
        raise _refused(f"endpoint: a URL of 1 to {MAX_ENDPOINT} characters is required", "endpoint")
    parts = urlsplit(endpoint)
    schemes = {"https", "http"} if allow_http else {"https"}
    if parts.scheme not in schemes or not parts.hostname or parts.username or parts.password:
        wanted = "an http:// or https://" if allow_http else "an https://"
        raise _refused(
            f"endpoint: {wanted} URL without credentials, got {endpoint:.60}", "endpoint"
        )
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise _refused('keys: {"p256dh": ..., "auth": ...} is required', "keys")
    return PushSubscription(endpoint, _key(keys, "p256dh", 65), _key(keys, "auth", 16))
