"""``/r/{id}`` and ``/r/{id}/watch`` (server/web/room_page.py) answer the client's page with the
room inside it: the snapshot ``GET /api/rooms/{id}`` gives, in a JSON data block that no
name can break out of, plain or gzipped alike; for a missing room the block says null."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from tests.support.live_server import LiveServer
from tests.support.ws_client import Client

STATIC = Path(__file__).resolve().parents[3] / "static"
BLOCK = re.compile(rb'<script type="application/json" id="room-snapshot">(.*?)</script>', re.S)
HOSTILE = "</script><b>x"


def _snapshot_in(page: bytes) -> dict[str, Any] | None:
    found = BLOCK.findall(page)
    assert len(found) == 1, "the room page carries exactly one room block"
    snapshot: dict[str, Any] | None = json.loads(found[0])
    return snapshot


def _without_now(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snapshot.items() if k != "now"}


async def test_the_page_carries_the_room_it_shows(
    make_server: Callable[..., LiveServer],
) -> None:
    live = make_server(static_dir=STATIC)
    room = await live.create_room()
    ada = await Client.open(live, room)
    try:
        await ada.join(name=HOSTILE)
        async with httpx.AsyncClient(base_url=live.url) as http:
            api = (await http.get(f"/api/rooms/{room}")).json()
            for path in (f"/r/{room}", f"/r/{room}/watch"):
                plain = await http.get(path, headers={"accept-encoding": "identity"})
                assert plain.status_code == 200
                assert plain.headers["cache-control"] == "no-cache"
                assert plain.headers["content-type"].startswith("text/html")
                assert "'sha256-" in plain.headers["content-security-policy"]
                assert HOSTILE.encode() not in plain.content  # written as \u003c inside
                shown = _snapshot_in(plain.content)
                assert shown is not None
                assert shown["room_id"] == room and shown["version"] == api["version"]
                assert [p["name"] for p in shown["players"]] == [HOSTILE]
                assert _without_now(shown) == _without_now(api)
                request = http.build_request("GET", path, headers={"accept-encoding": "gzip"})
                raw = await http.send(request, stream=True)
                zipped = b"".join([chunk async for chunk in raw.aiter_raw()])
                await raw.aclose()
                assert raw.headers["content-encoding"] == "gzip"
                unzipped = _snapshot_in(gzip.decompress(zipped))
                assert unzipped is not None and _without_now(unzipped) == _without_now(api)

            bob = await Client.open(live, room)
            try:
                await bob.join(name="Bob")
                after = await http.get(f"/r/{room}")
                shown_after = _snapshot_in(after.content)
                assert shown_after is not None
                names = [p["name"] for p in shown_after["players"]]
                assert names == [HOSTILE, "Bob"]  # the page shows the room as it is now
            finally:
                await bob.close()
    finally:
        await ada.close()


async def test_a_missing_room_gives_the_page_with_null_for_the_room(
    make_server: Callable[..., LiveServer],
) -> None:
    live = make_server(static_dir=STATIC)
    async with httpx.AsyncClient(base_url=live.url) as http:
        for path in ("/r/doesnotexist", "/r/doesnotexist/watch", "/r/%3Cscript%3E"):
            page = await http.get(path)
            assert page.status_code == 200 and b'<script type="module">' in page.content
            assert _snapshot_in(page.content) is None


async def test_without_a_client_the_room_path_is_a_404(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        assert (await http.get("/r/anything")).status_code == 404
