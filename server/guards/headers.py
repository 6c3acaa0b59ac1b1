"""Security headers on every HTTP response, added by a pure ASGI middleware.

``SecurityHeaders`` touches only ``http.response.start`` of ``http`` scopes: WebSocket
scopes (and so every frame, and the fastpath's ``RawSend``) pass straight through, and no
task is started. A header the endpoint already set is kept. ``SecureStarlette`` puts the
middleware outside Starlette's ``ServerErrorMiddleware``, so that a 500 carries them too.

The policy matches what the browser client (``static/``) needs: its own scripts, styles,
images and WebSocket, nothing inline, never framed (but for the game viewer made to be
embedded, whose own policy lets any site frame it: no ``X-Frame-Options`` is added then).
Room URLs are invitations, so no ``Referer`` leaves the page; API answers are never cached.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_SECURITY_POLICY", "SecureStarlette", "SecurityHeaders"]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'"
)

_EVERY: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers without CSP level 2
    (b"referrer-policy", b"no-referrer"),
)
_API = (*_EVERY, (b"cache-control", b"no-store"))


class SecurityHeaders:
    """ASGI middleware: the headers above on each HTTP response (``/api/``: also no-store)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = _API if scope["path"].startswith("/api/") else _EVERY

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {bytes(name).lower() for name, _ in headers}
                if _may_be_framed(headers):
                    present.add(b"x-frame-options")  # DENY would undo the page's own policy
                headers.extend(pair for pair in extra if pair[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _may_be_framed(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether the endpoint set a policy of its own that lets other sites frame the page
    (the embeddable game viewer, server/web/embed_page.py)."""
    for name, value in headers:
        if bytes(name).lower() == b"content-security-policy":
            return b"frame-ancestors 'none'" not in bytes(value)
    return False


class SecureStarlette(Starlette):
    """Starlette with ``SecurityHeaders`` around its whole stack, error pages included."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())
