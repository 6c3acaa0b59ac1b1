"""The server's VAPID key pair (RFC 8292): it signs every push, and browsers subscribe with
its public half, so a push service delivers to a subscription only what this server signed.

The private key travels as base64url of its raw 32 bytes (what ``TICTACTOE_PUSH_VAPID_KEY``
holds and the store keeps); the public key as base64url of the 65-byte uncompressed point,
which is what ``pushManager.subscribe({applicationServerKey})`` takes.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

__all__ = ["VapidKey"]


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass(frozen=True, slots=True)
class VapidKey:
    private: ec.EllipticCurvePrivateKey

    @classmethod
    def generate(cls) -> VapidKey:
        return cls(ec.generate_private_key(ec.SECP256R1()))

    @classmethod
    def parse(cls, text: str) -> VapidKey:
        """The key ``text`` holds (base64url of 32 raw bytes); ValueError saying why not."""
        try:
            raw = base64.urlsafe_b64decode(text.strip() + "=" * (-len(text.strip()) % 4))
        except (binascii.Error, ValueError):
            raise ValueError("is not base64url (of a raw 32-byte P-256 private key)") from None
        if len(raw) != 32:
            raise ValueError(f"must be 32 bytes (a raw P-256 private key), got {len(raw)}")
        try:
            return cls(ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1()))
        except ValueError:
            raise ValueError("is not a P-256 private key") from None

    @property
    def text(self) -> str:
        """The private key as stored: base64url of its raw 32 bytes."""
        return _b64url(self.private.private_numbers().private_value.to_bytes(32, "big"))

    @property
    def public_key(self) -> str:
        """The public key for ``applicationServerKey``: base64url, uncompressed point."""
        return _b64url(
            self.private.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def signer(self) -> Any:
        """The key as pywebpush signs with it (py_vapid's RFC 8292 ``Vapid``)."""
        from py_vapid import Vapid

        return Vapid(self.private)

    def __repr__(self) -> str:  # never print the private key
        return f"VapidKey(public_key={self.public_key!r})"
