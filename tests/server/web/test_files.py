"""The client's files carry an ETag and ``Cache-Control: no-cache``: a browser revalidates
and an unchanged file comes back as a body-less 304 (also for the index fallback). Text
files go gzipped to a browser that accepts it, with their own ETag and ``Vary``. The page
carries its styles and modules inside (with their hashes in its Content-Security-Policy) and
names its other assets under ``/v/{version}/``, cached as ``immutable``."""

from __future__ import annotations

import base64
import gzip
import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from starlette.exceptions import HTTPException

from server.web.compression import accepts_gzip, gzip_etag
from server.web.files import ClientFiles


def _client(tmp_path: Path) -> httpx.AsyncClient:
    (tmp_path / "index.html").write_text("<!doctype html><title>ttt</title>")
    (tmp_path / "app.js").write_text("export const ok = true;")
    transport = httpx.ASGITransport(app=ClientFiles(tmp_path))
    return httpx.AsyncClient(transport=transport, base_url="http://client.test")


async def test_files_are_revalidated_with_their_etag(tmp_path: Path) -> None:
    async with _client(tmp_path) as client:
        for path in ("/app.js", "/", "/r/q7m2kx9c"):
            first = await client.get(path)
            assert first.status_code == 200 and first.content
            assert first.headers["cache-control"] == "no-cache"
            etag = first.headers["etag"]
            again = await client.get(path, headers={"if-none-match": etag})
            assert again.status_code == 304 and again.content == b""
            assert again.headers["cache-control"] == "no-cache"


async def test_a_changed_file_is_sent_again(tmp_path: Path) -> None:
    async with _client(tmp_path) as client:
        etag = (await client.get("/app.js")).headers["etag"]
        (tmp_path / "app.js").write_text("export const ok = false; // a new release")
        fresh = await client.get("/app.js", headers={"if-none-match": etag})
        assert fresh.status_code == 200 and b"a new release" in fresh.content
        assert fresh.headers["etag"] != etag


# -- compression ---------------------------------------------------------------------------

MODULE = "export const cells = [" + ", ".join(f'"c{i}"' for i in range(400)) + "];\n"


def _gzip_client(tmp_path: Path) -> httpx.AsyncClient:
    (tmp_path / "index.html").write_text("<!doctype html><title>ttt</title>" + "<p>x</p>" * 100)
    (tmp_path / "app.js").write_text(MODULE)
    (tmp_path / "tiny.js").write_text("export {};\n")
    (tmp_path / "favicon.png").write_bytes(bytes(range(256)) * 8)
    transport = httpx.ASGITransport(app=ClientFiles(tmp_path))
    return httpx.AsyncClient(transport=transport, base_url="http://client.test")


@dataclass(frozen=True, slots=True)
class Raw:
    status_code: int
    headers: httpx.Headers
    content: bytes


async def _raw_get(client: httpx.AsyncClient, path: str, **headers: str) -> Raw:
    """A GET whose body is kept as sent (httpx would undo the gzip); httpx's own default
    ``Accept-Encoding`` is replaced by ``identity`` unless the test names one."""
    headers.setdefault("accept-encoding", "identity")
    request = client.build_request("GET", path, headers=headers)
    response = await client.send(request, stream=True)
    try:
        body = b"".join([chunk async for chunk in response.aiter_raw()])
    finally:
        await response.aclose()
    return Raw(response.status_code, response.headers, body)


async def test_text_files_go_gzipped_to_a_browser_that_accepts_it(tmp_path: Path) -> None:
    async with _gzip_client(tmp_path) as client:
        zipped = await _raw_get(client, "/app.js", **{"accept-encoding": "gzip, deflate, br"})
        assert zipped.status_code == 200
        assert zipped.headers["content-encoding"] == "gzip"
        assert zipped.headers["vary"] == "Accept-Encoding"
        assert zipped.headers["content-type"].startswith(
            ("text/javascript", "application/javascript")
        )
        assert zipped.headers["cache-control"] == "no-cache"
        assert gzip.decompress(zipped.content).decode() == MODULE
        assert int(zipped.headers["content-length"]) == len(zipped.content) < len(MODULE) / 3

        plain = await _raw_get(client, "/app.js", **{"accept-encoding": "identity"})
        assert "content-encoding" not in plain.headers
        assert plain.headers["vary"] == "Accept-Encoding"
        assert plain.content.decode() == MODULE
        # two bodies, two tags: a cache never answers one encoding with the other's tag
        assert zipped.headers["etag"] != plain.headers["etag"]
        assert zipped.headers["etag"] == plain.headers["etag"][:-1] + '-gzip"'

        # the index fallback of a client route is gzipped as well
        route = await _raw_get(client, "/r/q7m2kx9c", **{"accept-encoding": "gzip"})
        assert route.headers["content-encoding"] == "gzip"
        assert gzip.decompress(route.content).startswith(b"<!doctype html>")


async def test_each_encoding_revalidates_with_its_own_etag(tmp_path: Path) -> None:
    gz = {"accept-encoding": "gzip"}
    async with _gzip_client(tmp_path) as client:
        zipped_tag = (await _raw_get(client, "/app.js", **gz)).headers["etag"]
        plain_tag = (await _raw_get(client, "/app.js")).headers["etag"]
        again = await _raw_get(client, "/app.js", **gz, **{"if-none-match": zipped_tag})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["etag"] == zipped_tag
        assert again.headers["vary"] == "Accept-Encoding"
        assert again.headers["cache-control"] == "no-cache"
        plain_again = await _raw_get(client, "/app.js", **{"if-none-match": plain_tag})
        assert plain_again.status_code == 304 and plain_again.headers["etag"] == plain_tag
        # a gzip tag held by a client that now refuses gzip gets the plain body, not a 304
        switched = await _raw_get(client, "/app.js", **{"if-none-match": zipped_tag})
        assert switched.status_code == 200 and switched.content.decode() == MODULE

        (tmp_path / "app.js").write_text(MODULE.replace("c0", "changed"))
        fresh = await _raw_get(client, "/app.js", **gz, **{"if-none-match": zipped_tag})
        assert fresh.status_code == 200 and fresh.headers["etag"] != zipped_tag
        assert b"changed" in gzip.decompress(fresh.content)


async def test_what_gzip_cannot_help_is_sent_as_it_is(tmp_path: Path) -> None:
    async with _gzip_client(tmp_path) as client:
        tiny = await _raw_get(client, "/tiny.js", **{"accept-encoding": "gzip"})
        assert "content-encoding" not in tiny.headers and tiny.content == b"export {};\n"
        image = await _raw_get(client, "/favicon.png", **{"accept-encoding": "gzip"})
        assert "content-encoding" not in image.headers and "vary" not in image.headers
        refused = await _raw_get(client, "/app.js", **{"accept-encoding": "gzip;q=0, *"})
        assert "content-encoding" not in refused.headers


async def test_head_says_the_gzipped_length_without_a_body(tmp_path: Path) -> None:
    async with _gzip_client(tmp_path) as client:
        zipped = await _raw_get(client, "/app.js", **{"accept-encoding": "gzip"})
        head = await client.head("/app.js", headers={"accept-encoding": "gzip"})
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == zipped.headers["content-length"]
        assert head.headers["etag"] == zipped.headers["etag"]


@pytest.mark.parametrize(
    ("header", "accepted"),
    [
        ("gzip", True),
        ("gzip, deflate, br, zstd", True),
        ("br;q=1.0, gzip;q=0.8", True),
        ("*", True),
        ("identity", False),
        ("", False),
        ("gzip;q=0", False),
        ("gzip;q=0, *;q=1", False),
        ("*;q=0", False),
        ("gzip;q=nonsense", False),
        ("X-GZIP", True),
    ],
)
def test_accept_encoding_is_read_with_its_weights(header: str, accepted: bool) -> None:
    assert accepts_gzip(header) is accepted


def test_the_gzip_tag_differs_and_keeps_weakness() -> None:
    assert gzip_etag('"abc"') == '"abc-gzip"'
    assert gzip_etag('W/"abc"') == 'W/"abc-gzip"'


# -- the served page, versioned immutable URLs ---------------------------------------------

INDEX = (
    '<!doctype html><link rel="icon" href="/favicon.svg"><link rel="stylesheet" '
    'href="/css/base.css"><script type="module" src="/js/app.js"></script><a href="/">home</a>'
)
VERSIONED = re.compile(r'href="/v/([0-9a-f]{16})/favicon\.svg"')
INLINE_SCRIPT = re.compile(r'<script type="module">(.*?)</script>', re.DOTALL)
INLINE_STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)


def _client_tree(root: Path) -> Path:
    (root / "js").mkdir(parents=True)
    (root / "css").mkdir()
    (root / "index.html").write_text(INDEX)
    (root / "js" / "app.js").write_text(MODULE)
    (root / "css" / "base.css").write_text("body { margin: 0; }\n")
    (root / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    return root


def _versioned_client(root: Path) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=ClientFiles(root))
    return httpx.AsyncClient(transport=transport, base_url="http://client.test")


async def _version_of(client: httpx.AsyncClient) -> str:
    index = await _raw_get(client, "/r/q7m2kx9c")
    match = VERSIONED.search(index.content.decode())
    assert match is not None, index.content
    return match.group(1)


def _csp_hash(block: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(block.encode()).digest()).decode() + "'"


async def test_the_page_carries_its_styles_and_modules_inside_with_their_hashes(
    tmp_path: Path,
) -> None:
    """One request gives the whole client; only its own two inline blocks may run."""
    async with _versioned_client(_client_tree(tmp_path)) as client:
        index = await _raw_get(client, "/")
        html = index.content.decode()
        script = INLINE_SCRIPT.search(html)
        style = INLINE_STYLE.search(html)
        assert script is not None and style is not None, html
        assert "const cells = [" in script.group(1) and "return { cells };" in script.group(1)
        assert style.group(1) == "\nbody { margin: 0; }\n"
        assert "/js/app.js" not in html and "/css/base.css" not in html
        policy = index.headers["content-security-policy"]
        directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
        assert directives["script-src"] == f"'self' {_csp_hash(script.group(1))}"
        assert directives["style-src"] == f"'self' {_csp_hash(style.group(1))}"
        assert "unsafe" not in policy
        again = await _raw_get(client, "/", **{"if-none-match": index.headers["etag"]})
        assert again.status_code == 304  # and its headers replace the cached ones, so:
        assert again.headers["content-security-policy"] == policy
        zipped = await _raw_get(client, "/r/q7m2kx9c", **{"accept-encoding": "gzip"})
        assert gzip.decompress(zipped.content) == index.content
        assert zipped.headers["content-security-policy"] == policy


async def test_a_page_without_modules_or_styles_is_served_as_it_is(tmp_path: Path) -> None:
    async with _client(tmp_path) as client:
        page = await client.get("/")
        assert page.text == "<!doctype html><title>ttt</title>"
        assert "sha256" not in page.headers["content-security-policy"]


async def test_the_index_names_its_assets_under_a_version_cached_as_immutable(
    tmp_path: Path,
) -> None:
    async with _versioned_client(_client_tree(tmp_path)) as client:
        index = await _raw_get(client, "/")
        assert index.headers["cache-control"] == "no-cache"
        version = await _version_of(client)
        html = index.content.decode()
        assert f'"/v/{version}/favicon.svg"' in html and '"/favicon.svg"' not in html
        assert 'href="/"' in html  # links to pages stay as they are

        # the files stay reachable one by one (a page from a plain file server names them)
        module = await _raw_get(client, f"/v/{version}/js/app.js", **{"accept-encoding": "gzip"})
        assert module.status_code == 200
        assert module.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert gzip.decompress(module.content).decode() == MODULE
        style = await _raw_get(client, f"/v/{version}/css/base.css")
        assert style.content == b"body { margin: 0; }\n"
        assert style.headers["cache-control"].endswith("immutable")
        with pytest.raises(HTTPException) as missing:  # the app's handler makes it a 404 page
            await client.get(f"/v/{version}/js/nothing.js")
        assert missing.value.status_code == 404  # no index fallback under /v/

        again = await _raw_get(client, "/", **{"if-none-match": index.headers["etag"]})
        assert again.status_code == 304 and again.headers["cache-control"] == "no-cache"


async def test_a_release_changes_the_version_and_old_urls_are_not_immutable(
    tmp_path: Path,
) -> None:
    root = _client_tree(tmp_path)
    async with _versioned_client(root) as client:
        old = await _version_of(client)
        old_etag = (await _raw_get(client, "/")).headers["etag"]
        (root / "js" / "app.js").write_text(MODULE.replace("c0", "released"))
        new = await _version_of(client)
        assert new != old
        fresh = await _raw_get(client, "/", **{"if-none-match": old_etag})
        assert fresh.status_code == 200 and new in fresh.content.decode()
        assert '"released"' in fresh.content.decode()  # the page carries the new module
        stale = await _raw_get(client, f"/v/{old}/js/app.js")
        assert stale.headers["cache-control"] == "no-cache"  # the current file, revalidated
        assert "released" in stale.content.decode()


async def test_the_version_is_a_hash_of_contents_the_same_on_every_host(tmp_path: Path) -> None:
    """Two workers with the same files (written at different times) agree on the version."""
    first = _client_tree(tmp_path / "one")
    second = _client_tree(tmp_path / "two")
    os.utime(second / "js" / "app.js", (1_000_000, 1_000_000))
    async with _versioned_client(first) as one, _versioned_client(second) as two:
        assert await _version_of(one) == await _version_of(two)
