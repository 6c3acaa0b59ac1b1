"""The game viewer other sites frame (``/embed/{id}``, server/web/embed_page.py) and its
oEmbed (``/api/oembed``, server/api/oembed.py), on a real server: the viewer carries the
game's record and a policy that lets any site frame it, every other page still refuses to
be framed, and oEmbed answers only for rooms of this server, with typed errors."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from tests.support.games import top_row_win
from tests.support.live_server import LiveServer

STATIC = Path(__file__).resolve().parents[3] / "static"
BLOCK = re.compile(rb'<script type="application/json" id="embed-game">(.*?)</script>', re.S)


def _block(page: bytes) -> dict[str, Any]:
    found = BLOCK.findall(page)
    assert len(found) == 1, "the viewer carries exactly one game block"
    block: dict[str, Any] = json.loads(found[0])
    return block


async def test_the_viewer_carries_the_game_and_may_be_framed(
    make_server: Callable[..., LiveServer],
) -> None:
    live = make_server(static_dir=STATIC)
    room = await top_row_win(live)
    async with httpx.AsyncClient(base_url=live.url) as http:
        page = await http.get(f"/embed/{room}", headers={"accept-encoding": "identity"})
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        policy = page.headers["content-security-policy"]
        assert (
            "frame-ancestors *" in policy
            and "'none'; base-uri" not in policy.split("frame-ancestors")[1][:10]
        )
        assert "x-frame-options" not in page.headers  # DENY would undo the policy
        assert "'sha256-" in policy  # the page's own script and style still run, nothing else
        game = _block(page.content)
        record = (await http.get(f"/api/rooms/{room}/record.txt")).text
        assert f'[GameId "{game["game_id"]}"]' in record  # the id the export carries
        assert game["room_id"] == room and game["game_number"] == 1
        assert [p["name"] for p in game["players"]] == ["Ada", "Grace"]
        assert [(m["mark"], m["row"], m["col"]) for m in game["moves"]] == [
            ("X", 0, 0), ("O", 1, 0), ("X", 0, 1), ("O", 1, 1), ("X", 0, 2),
        ]  # fmt: skip
        assert game["outcome"]["winner"] == "X" and game["rules"]["k"] == 3

        # every other page still refuses frames
        for path in (f"/r/{room}", "/", f"/api/rooms/{room}"):
            other = await http.get(path)
            assert other.headers["x-frame-options"] == "DENY", path
            assert "frame-ancestors 'none'" in other.headers["content-security-policy"], path

        # and the room page names its oEmbed answer
        link = (await http.get(f"/r/{room}")).headers["link"]
        assert link.startswith(f"<{live.url}/api/oembed?url=") and "json+oembed" in link


async def test_a_missing_room_or_game_is_said_in_the_frame(
    make_server: Callable[..., LiveServer],
) -> None:
    live = make_server(static_dir=STATIC)
    room = await live.create_room()
    async with httpx.AsyncClient(base_url=live.url) as http:
        missing = await http.get("/embed/nosuchroom")
        assert missing.status_code == 404 and _block(missing.content) == {"error": "room_not_found"}
        assert "frame-ancestors *" in missing.headers["content-security-policy"]
        no_game = await http.get(f"/embed/{room}?game=7")
        assert no_game.status_code == 404 and _block(no_game.content) == {"error": "not_found"}
        unfinished = _block((await http.get(f"/embed/{room}")).content)
        assert unfinished["game_id"] is None and unfinished["outcome"] is None


async def test_oembed_answers_for_this_servers_rooms_only(
    make_server: Callable[..., LiveServer],
) -> None:
    live = make_server(static_dir=STATIC)
    room = await top_row_win(live)
    async with httpx.AsyncClient(base_url=live.url) as http:

        async def ask(url: str, **params: str) -> httpx.Response:
            query = "&".join(f"{k}={quote(v)}" for k, v in params.items())
            return await http.get(f"/api/oembed?url={quote(url)}" + (f"&{query}" if query else ""))

        for path in (f"/r/{room}", f"/r/{room}/watch", f"/embed/{room}"):
            answer = await ask(f"{live.url}{path}")
            assert answer.status_code == 200, answer.text
            body = answer.json()
            assert body["version"] == "1.0" and body["type"] == "rich"
            assert (body["width"], body["height"]) == (400, 560)
            assert f'src="{live.url}/embed/{room}"' in body["html"]
            assert body["title"].startswith("Ada vs Grace")
        fitted = (await ask(f"{live.url}/r/{room}", maxwidth="300", maxheight="900")).json()
        assert (fitted["width"], fitted["height"]) == (300, 560)
        assert 'width="300"' in fitted["html"]

        xml = await ask(f"{live.url}/r/{room}", format="xml")
        assert xml.status_code == 501  # the specification's answer to an unserved format
        tiny = await ask(f"{live.url}/r/{room}", maxwidth="100")
        assert (tiny.status_code, tiny.json()["code"], tiny.json()["field"]) == (
            422,
            "invalid_options",
            "maxwidth",
        )
        for url, code in [
            ("https://elsewhere.example/r/abc", "not_found"),
            (f"{live.url}/tournaments", "not_found"),
            (f"{live.url}/r/nosuchroom", "room_not_found"),
        ]:
            refused = await ask(url)
            assert (refused.status_code, refused.json()["code"]) == (404, code), url
        bare = await http.get("/api/oembed")
        assert (bare.status_code, bare.json()["code"]) == (400, "bad_message")
