"""The Web Push settings: the VAPID key and contact, and how a worker sends its pushes.

A group of fields that ``Settings`` (server.settings) inherits: each is still one flat setting,
built as ``Settings(push_timeout=...)``, read as ``settings.push_timeout``, set by
``TICTACTOE_PUSH_TIMEOUT`` and listed in docs/operations.md's settings table ("Web Push" there
says how they are used). None has a flag.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import SettingsError
from .settings_checks import positive_int, positive_number, stripped_text, true_or_false

__all__ = ["PushSettings"]


@dataclass(frozen=True)
class PushSettings:
    """Never built alone: ``Settings`` inherits these fields and calls ``_check_push``.

    No slots of its own (``__slots__ = ()``): ``Settings`` keeps every field in its slots, as a
    class cannot inherit slots from two bases."""

    __slots__ = ()

    push_vapid_key: str = field(default="", repr=False)  # a secret: never in a printed repr
    """The VAPID private key that signs every push (base64url of the raw 32-byte P-256 key);
    empty: the first worker generates one and keeps it in the store for all."""
    push_contact: str = "mailto:webpush@localhost"
    """The VAPID ``sub`` claim, ``mailto:...`` or ``https://...``: whom a push service
    contacts about this server's pushes. The default is a placeholder that the push services
    accept; an operator sets a real address."""
    push_concurrency: int = 4
    """Pushes a worker has in flight at once (server.push.dispatch)."""
    push_queue: int = 256
    """Notices a worker holds waiting to be pushed; beyond, one is dropped and counted."""
    push_timeout: float = 10.0
    """Seconds one push (encrypting, the request, the push service's answer) may take."""
    push_http_endpoints: bool = False
    """Accept ``http://`` push endpoints too (a push service on the same machine, tests);
    off: only ``https://``, so the server never posts in the clear."""

    def _check_push(self) -> None:
        for name in ("push_concurrency", "push_queue"):
            positive_int(self, name)
        positive_number(self, "push_timeout")
        true_or_false(self, "push_http_endpoints")
        for name in ("push_vapid_key", "push_contact"):
            stripped_text(self, name)
        contact = self.push_contact
        if not contact.startswith(("mailto:", "https://")) or contact in ("mailto:", "https://"):
            raise SettingsError(
                "push_contact", f"must be mailto:... or https://..., got {contact!r:.80}"
            )
        if self.push_vapid_key:
            from .push.vapid import VapidKey  # cryptography, only for a key given

            try:
                VapidKey.parse(self.push_vapid_key)
            except ValueError as exc:
                raise SettingsError("push_vapid_key", str(exc)) from None
