"""The Content-Security-Policy docs/operations.md quotes is the one the server sends: the
site's on every response, and the page's (with the SHA-256 of its inline script and style
block) on ``/`` and ``/r/{room_id}``. A change to the client's files changes the page's
hashes: the quote must then be updated (the failure shows the policy sent)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from server import Settings, create_app
from server.guards.headers import CONTENT_SECURITY_POLICY

OPERATIONS = Path(__file__).resolve().parents[3] / "docs" / "operations.md"
QUOTED_PAGE = re.compile(r"^\s*Content-Security-Policy: (.+)$", re.MULTILINE)


def _quoted_site_policy(text: str) -> str:
    """The site's policy, quoted across lines in the "Headers" item."""
    (quoted,) = re.findall(r"`Content-Security-Policy: ([^`]+)`", text)
    return " ".join(quoted.split())


async def _policies(*paths: str) -> list[str]:
    """The policy sent on each path (no lifespan: the page needs none, and a room page
    whose room the store does not hold is still the page)."""
    transport = httpx.ASGITransport(app=create_app(Settings()))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        answers = [await http.get(path) for path in paths]
    for answer in answers:
        assert answer.status_code == 200, (answer.url, answer.status_code)
    return [answer.headers["content-security-policy"] for answer in answers]


async def test_the_docs_quote_the_policies_the_server_sends() -> None:
    text = OPERATIONS.read_text()
    (page_quoted,) = QUOTED_PAGE.findall(text)
    root, room, watch, api = await _policies(
        "/", "/r/q7m2kx9cq7m2kx9cq7m2kx", "/r/q7m2kx9cq7m2kx9cq7m2kx/watch", "/api/rooms"
    )
    assert root == room == watch, (root, room, watch)
    assert page_quoted == root, f"docs/operations.md should quote the page's policy: {root}"
    assert _quoted_site_policy(text) == api == CONTENT_SECURITY_POLICY
    assert root != api and len(re.findall(r"'sha256-[A-Za-z0-9+/]{43}='", root)) == 2
