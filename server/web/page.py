"""The page the server answers for every client route: index.html with the client inside.

``static/index.html`` is a plain page (its styles as ``<link>``s, its entry module as
``<script src>``) that any file server can serve. This server serves it with the style
sheets in one ``<style>`` and the whole module graph in one ``<script type="module">``
(server/web/bundle.py), so that a first visit costs one request: behind 250 ms of delay
each way the lobby is usable after the TCP handshake and that one round trip, instead of
after a round trip per six files (docs/performance.md, "First paint").

Nothing inline is allowed by the site's Content-Security-Policy; this page carries its own
policy, the same with the SHA-256 of its one script and its one style block added, so
those two blocks run and nothing else inline can.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..guards.headers import CONTENT_SECURITY_POLICY
from .bundle import BundleError, bundle, read_modules

__all__ = ["InlinePage", "ServedPage", "inline_page", "json_block"]

_STYLE_LINK = re.compile(r'[ \t]*<link rel="stylesheet" href="/css/([\w.-]+\.css)">\n?')
_ENTRY = re.compile(r'<script type="module" src="/js/([\w./-]+\.js)"></script>')
_CLOSES_SCRIPT = re.compile(r"</script|<!--", re.IGNORECASE)
_CLOSES_STYLE = re.compile(r"</style", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class InlinePage:
    """The served index.html and the Content-Security-Policy that lets its blocks run."""

    html: bytes
    content_security_policy: str


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def _with_hashes(script: str | None, style: str | None) -> str:
    extra = {"script-src": script, "style-src": style}
    directives = []
    for part in CONTENT_SECURITY_POLICY.split(";"):
        directive = part.strip()
        block = extra.get(directive.split()[0])
        directives.append(directive if block is None else f"{directive} {_sha256(block)}")
    return "; ".join(directives)


def inline_page(root: Path) -> InlinePage:
    """index.html under ``root`` with its style sheets and modules put inside it (a page
    that names neither is served as it is)."""
    html = (root / "index.html").read_text(encoding="utf-8")
    style = script = None
    first = _STYLE_LINK.search(html)
    if first is not None:
        sheets = _STYLE_LINK.findall(html)
        style = "\n" + "".join((root / "css" / name).read_text(encoding="utf-8") for name in sheets)
        if _CLOSES_STYLE.search(style):
            raise BundleError("a style sheet contains '</style', which would end the inline block")
        indent = first.group(0)[: len(first.group(0)) - len(first.group(0).lstrip())]
        rest = _STYLE_LINK.sub("", html[first.start() :])
        html = f"{html[: first.start()]}{indent}<style>{style}</style>\n{rest}"
    entry = _ENTRY.search(html)
    if entry is not None:
        script = "\n" + bundle(read_modules(root / "js", entry.group(1)))
        if _CLOSES_SCRIPT.search(script):
            raise BundleError("a module contains '</script' or '<!--', unsafe in an inline script")
        inline = f'<script type="module">{script}</script>'
        html = _ENTRY.sub(lambda _: inline, html, count=1)
    return InlinePage(html.encode(), _with_hashes(script, style))


class ServedPage:
    """One client version's page, plain and gzipped, that can also carry a data block.

    ``with_data(block)`` puts ``block`` (a ``<script type="application/json">``, which is
    data, not script, so the policy does not apply) before ``</body>``. Compressing the
    whole page again for each request would cost ~25 ms of CPU; instead the gzip stream of
    everything before the insertion point is made once and its compressor kept, and each
    request compresses only its block and the page's last bytes on a copy of it (~0.3 ms).
    """

    def __init__(self, html: bytes, content_security_policy: str) -> None:
        self.html = html
        self.content_security_policy = content_security_policy
        self.zipped = gzip.compress(html, compresslevel=9, mtime=0)
        self.etag = f'"{hashlib.sha256(html).hexdigest()[:20]}"'
        cut = html.rfind(b"</body>")
        self._cut = cut if cut >= 0 else len(html)
        self._compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: the gzip format
        self._zipped_head = self._compressor.compress(html[: self._cut])

    def with_data(self, block: bytes) -> tuple[bytes, bytes, str]:
        """(html, gzipped html, ETag) of the page carrying ``block``."""
        rest = block + self.html[self._cut :]
        compressor = self._compressor.copy()
        zipped = self._zipped_head + compressor.compress(rest) + compressor.flush()
        digest = hashlib.sha256(self.etag.encode() + block).hexdigest()[:20]
        return self.html[: self._cut] + rest, zipped, f'"{digest}"'


def json_block(element_id: str, value: bytes) -> bytes:
    """``value`` (JSON text) as a data block; ``<`` written as ``\\u003c`` so that nothing
    in it can end the element (the JSON means the same)."""
    safe = value.replace(b"<", b"\\u003c")
    return (
        b'<script type="application/json" id="'
        + element_id.encode()
        + b'">'
        + safe
        + b"</script>\n"
    )
