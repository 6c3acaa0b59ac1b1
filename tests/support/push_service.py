"""A push service on the loopback that stands in for FCM or Mozilla's: it takes what the
server POSTs, checks the VAPID token (RFC 8292) and decrypts the message (RFC 8291,
aes128gcm) with the private keys of the browser it made the subscription for.

``PushService.subscription(name)`` is a browser's subscription: its endpoint on this
service, its P-256 public key and its auth secret, whose private halves only this service
holds, as a real browser holds them. Each request is answered with the status ``answers``
gives for the endpoint (201 by default; 404 or 410 to say the subscription is gone; ``HANG``
to take the request and answer nothing until the service stops, counted in ``hanging``). Every
message received is kept in ``received`` as ``Received``: the decrypted JSON and the VAPID
claims, after every check passed; a request that fails a check is kept in ``refused`` with
why, and answered 400 (as a real push service would refuse it), so a test sees it fail.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

import http_ece
from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

__all__ = ["HANG", "PushService", "Received"]

HANG = 0
"""An answer of ``answers``: none at all, until the service stops (a push service too slow)."""


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Browser:
    """The private side of one subscription."""

    name: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes


@dataclass(frozen=True)
class Received:
    name: str
    """The subscription (browser) it was sent to."""
    message: dict[str, Any]
    """The decrypted payload."""
    claims: dict[str, Any]
    """The VAPID token's claims (checked)."""
    headers: dict[str, str]
    """The request's headers, by lowercase name."""


@dataclass
class PushService:
    vapid_public_key: str | None = None
    """The server's VAPID public key (base64url); tokens signed by another are refused."""
    answers: dict[str, int] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    browsers: dict[str, Browser] = field(default_factory=dict)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    port: int = 0
    hanging: int = 0
    """Requests taken and not answered (``HANG``)."""
    _release: asyncio.Event = field(default_factory=asyncio.Event)
    _runner: web.AppRunner | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> PushService:
        app = web.Application()
        app.router.add_post("/push/{name}", self._take)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and isinstance(server, asyncio.Server)
        self.port = server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        self._release.set()  # the hanging requests end, so the runner's cleanup is quick
        if self._runner is not None:
            await self._runner.cleanup()

    def subscription(self, name: str) -> dict[str, Any]:
        """A new browser's subscription, as ``PushSubscription.toJSON()`` gives it."""
        browser = Browser(name, ec.generate_private_key(ec.SECP256R1()), os.urandom(16))
        self.browsers[name] = browser
        public = browser.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.origin}/push/{name}",
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(browser.auth)},
        }

    async def next(self, timeout: float = 20.0) -> Received:
        """The oldest message not taken yet (waits for one; bounded against hangs)."""
        async with asyncio.timeout(timeout):
            while not self.received:
                self.arrived.clear()
                await self.arrived.wait()
        return self.received.pop(0)

    async def _take(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        body = await request.read()
        try:
            claims = self._check_vapid(request.headers.get("Authorization", ""))
            browser = self.browsers[name]
            if request.headers.get("Content-Encoding") != "aes128gcm":
                raise ValueError(f"content encoding {request.headers.get('Content-Encoding')}")
            if not request.headers.get("TTL", "").isdigit():
                raise ValueError("no TTL header (RFC 8030 requires one)")
            plain = http_ece.decrypt(
                body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm"
            )
            message = json.loads(plain)
        except (ValueError, KeyError, InvalidSignature, http_ece.ECEException) as exc:
            self.refused.append(f"{name}: {exc!r}")
            self.arrived.set()
            return web.Response(status=400, text=str(exc))
        status = self.answers.get(name, 201)
        if status == HANG:
            self.hanging += 1
            self.arrived.set()
            await self._release.wait()
            return web.Response(status=503)
        if status < 300:
            headers = {k.lower(): v for k, v in request.headers.items()}
            self.received.append(Received(name, message, claims, headers))
        else:
            self.refused.append(f"{name}: answered {status}")
        self.arrived.set()
        return web.Response(status=status)

    def _check_vapid(self, authorization: str) -> dict[str, Any]:
        """RFC 8292: ``vapid t=<JWT>, k=<public key>``; the JWT is ES256 over the key."""
        scheme, _, params = authorization.partition(" ")
        if scheme != "vapid":
            raise ValueError(f"authorization scheme {scheme!r} is not vapid")
        fields = dict(part.strip().split("=", 1) for part in params.split(",") if "=" in part)
        token, key = fields["t"], fields["k"]
        if self.vapid_public_key is not None and key != self.vapid_public_key:
            raise ValueError("the token is signed by another key than the server's")
        header_b64, claims_b64, signature_b64 = token.split(".")
        header = json.loads(unb64url(header_b64))
        if header != {"typ": "JWT", "alg": "ES256"}:
            raise ValueError(f"JWT header {header}")
        signature = unb64url(signature_b64)
        if len(signature) != 64:
            raise ValueError("an ES256 signature is 64 bytes")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        public.verify(
            encode_dss_signature(
                int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
            ),
            f"{header_b64}.{claims_b64}".encode(),
            ec.ECDSA(hashes.SHA256()),
        )
        claims: dict[str, Any] = json.loads(unb64url(claims_b64))
        if claims.get("aud") != self.origin:
            raise ValueError(f"aud {claims.get('aud')!r} is not {self.origin!r}")
        now = time.time()
        if not now < claims["exp"] <= now + 24 * 3600:
            raise ValueError(f"exp {claims['exp']} is not within the next 24 hours")
        return claims
