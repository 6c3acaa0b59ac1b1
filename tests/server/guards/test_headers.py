"""Security headers on every HTTP response (server/guards/headers.py), on a real server: pages,
client files, the API, probes, errors; and no ``server`` header."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from server.guards.headers import CONTENT_SECURITY_POLICY, SecureStarlette, SecurityHeaders
from tests.support.live_server import LiveServer

STATIC = Path(__file__).resolve().parents[3] / "static"
EVERY = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


HASH = re.compile(r" 'sha256-[A-Za-z0-9+/]{43}='")


def assert_secure(response: httpx.Response, *, api: bool) -> None:
    """The headers above; the page (server/web/page.py) adds to the policy the hashes of
    its one inline script and its one inline style block, and nothing else."""
    page = response.headers.get("content-type", "").startswith("text/html")
    for name, value in EVERY.items():
        got = response.headers.get_list(name)
        if page and name == "content-security-policy" and response.status_code == 200:
            assert len(got) == 1 and HASH.sub("", got[0]) == value, got
            hashed = [d.split()[0] for d in got[0].split(";") if "'sha256-" in d]
            assert hashed == ["script-src", "style-src"] and len(HASH.findall(got[0])) == 2
            continue
        assert got == [value], (response.url, name)
    assert "server" not in response.headers
    assert "date" in response.headers  # HTTP wants it; it says nothing about the software
    if api:
        assert response.headers.get_list("cache-control") == ["no-store"], response.url
    else:
        assert "no-store" not in response.headers.get("cache-control", "")


def test_the_policy_allows_nothing_inline_and_no_framing() -> None:
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'" and directives["connect-src"] == "'self'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY


def test_the_client_has_no_inline_script_style_or_handler() -> None:
    """What the policy refuses is not in the client: no <script> without src, no <style>,
    no style or on* attribute in the page, no style attribute set from the modules (the
    served page puts the files inline and allows exactly those blocks by their hashes)."""
    page = (STATIC / "index.html").read_text()
    assert "<style" not in page and " style=" not in page and " onload=" not in page
    assert all("src=" in tag for tag in page.split("<script")[1:])
    for module in STATIC.glob("js/**/*.js"):
        text = module.read_text()
        assert "style:" not in text and 'setAttribute("style"' not in text, module
        assert "eval(" not in text and "new Function" not in text, module  # no unsafe-eval


@pytest.mark.parametrize(
    ("method", "path", "api"),
    [
        ("GET", "/", False),
        ("GET", "/r/q7m2kx9c", False),  # the index fallback
        ("GET", "/js/main.js", False),
        ("GET", "/css/base.css", False),
        ("GET", "/healthz", False),
        ("GET", "/readyz", False),
        ("GET", "/nothing.txt", False),  # a 404
        ("GET", "/api/rooms", True),
        ("GET", "/api/stats", True),
        ("GET", "/api/nothing", True),
        ("DELETE", "/api/rooms", True),  # a 405
    ],
)
async def test_every_response_carries_the_headers(
    make_server: Callable[..., LiveServer], method: str, path: str, api: bool
) -> None:
    live = make_server(static_dir=STATIC)
    async with httpx.AsyncClient(base_url=live.url) as client:
        response = await client.request(method, path)
    assert response.status_code < 500
    assert_secure(response, api=api)


async def test_api_writes_and_their_refusals_carry_them(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        created = await client.post("/api/rooms", json={})
        refused = await client.post("/api/rooms", content=b"{}")
        matched = await client.post("/api/quickplay", json={})  # sets no-store itself: once
    assert (created.status_code, refused.status_code, matched.status_code) == (201, 415, 200)
    for response in (created, refused, matched):
        assert_secure(response, api=True)


def in_process(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


async def test_a_crash_answers_500_with_the_headers() -> None:
    async def boom(request: Request) -> Response:
        raise RuntimeError("a bug")

    async with in_process(SecureStarlette(routes=[Route("/api/boom", boom)])) as client:
        response = await client.get("/api/boom")
    assert response.status_code == 500
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert response.headers["cache-control"] == "no-store"


async def test_websocket_scopes_pass_through_untouched() -> None:
    """The middleware hands a WebSocket the server's own ``send`` (the fastpath's RawSend
    and every frame see no wrapper)."""
    seen: list[Any] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen.append(send)

    async def send(message: Any) -> None:
        pass

    async def receive() -> Any:
        return {}

    await SecurityHeaders(inner)({"type": "websocket", "path": "/ws/x"}, receive, send)
    assert seen == [send]


async def test_a_header_the_endpoint_set_is_kept() -> None:
    async def framed(request: Request) -> Response:
        return Response("ok", headers={"x-frame-options": "SAMEORIGIN"})

    async with in_process(SecurityHeaders(Starlette(routes=[Route("/", framed)]))) as client:
        response = await client.get("/")
    assert response.headers.get_list("x-frame-options") == ["SAMEORIGIN"]
    assert response.headers["referrer-policy"] == "no-referrer"
