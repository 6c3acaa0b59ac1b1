"""The client's files carry an ETag and ``Cache-Control: no-cache``: a browser revalidates
and an unchanged file comes back as a body-less 304 (also for the index fallback)."""

from __future__ import annotations

from pathlib import Path

import httpx

from server.static import ClientFiles


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
