"""The Content-Security-Policy docs/operations.md quotes is the one the server sends: the
site's on every response, and the page's on ``/``, ``/r/{room_id}`` and ``/embed/{room_id}``
with ``'sha256-SCRIPT'`` and ``'sha256-STYLE'`` standing for the SHA-256 of the page's own
inline script and style block, which this test computes from the page served (so a change
to the client's files changes nothing here, and a policy that hashed anything else
fails)."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import httpx

from server import Settings, create_app
from server.guards.headers import CONTENT_SECURITY_POLICY

ROOT = Path(__file__).resolve().parents[3]
OPERATIONS = ROOT / "docs" / "operations.md"
QUOTED_PAGE = re.compile(r"^\s*Content-Security-Policy: (.+)$", re.MULTILINE)
SCRIPT = re.compile(r'<script type="module">(.*?)</script>', re.S)
STYLE = re.compile(r"<style>(.*?)</style>", re.S)


def _quoted_site_policy(text: str) -> str:
    """The site's policy, quoted across lines in the "Headers" item."""
    (quoted,) = re.findall(r"`Content-Security-Policy: ([^`]+)`", text)
    return " ".join(quoted.split())


def _sha256(block: str) -> str:
    return base64.b64encode(hashlib.sha256(block.encode()).digest()).decode()


async def test_the_docs_quote_the_policies_the_server_sends() -> None:
    text = OPERATIONS.read_text()
    (page_quoted,) = QUOTED_PAGE.findall(text)
    transport = httpx.ASGITransport(app=create_app(Settings(static_dir=ROOT / "static")))
    room = "q7m2kx9cq7m2kx9cq7m2kx"
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        pages = {path: await http.get(path) for path in ("/", f"/r/{room}", f"/r/{room}/watch")}
        embed = await http.get(f"/embed/{room}")  # a room the store does not hold: still the page
        api = (await http.get("/api/rooms")).headers["content-security-policy"]
    for path, answer in pages.items():
        assert answer.status_code == 200, path
        script, style = SCRIPT.search(answer.text), STYLE.search(answer.text)
        assert script is not None and style is not None, path
        expected = page_quoted.replace("'sha256-SCRIPT'", f"'sha256-{_sha256(script.group(1))}'")
        expected = expected.replace("'sha256-STYLE'", f"'sha256-{_sha256(style.group(1))}'")
        assert answer.headers["content-security-policy"] == expected, path
    framed = (
        pages["/"]
        .headers["content-security-policy"]
        .replace("frame-ancestors 'none'", "frame-ancestors *")
    )
    assert embed.headers["content-security-policy"] == framed
    assert _quoted_site_policy(text) == api == CONTENT_SECURITY_POLICY
