"""The application heartbeat, from the server's side (server.ws.heartbeat): a client that
sends ``ping`` and is then cut off without a close (its packets dropped by the delaying
proxy's blackhole) is noticed within the documented ``2 * heartbeat_timeout + 1`` seconds,
its seat shown as away, with the fastpath's WebSocket probe and without it. A client that
is only quiet (a background tab whose timers are slowed, which still answers WebSocket
pings) stays connected. A tournament's socket answers ``ping`` too."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect as ws_connect

from bench.delay_proxy import DelayProxy
from server import Settings
from server.state import app_state
from tests.support.live_server import LiveServer
from tests.support.waiting import eventually
from tests.support.ws_client import Client

TIMEOUT = 0.5
NOTICED = 2 * TIMEOUT + 1  # docs/protocol.md, "Heartbeat": after the last message heard
SLACK = 5.0  # a loaded machine's lateness; still far below the keepalive's 600 s here


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[bool], LiveServer]]:
    """``servers(fastpath)``: one server a module for each, heartbeat_timeout TIMEOUT; the
    WebSocket keepalive would take ten minutes, so only the heartbeat can notice in time."""
    started: dict[bool, LiveServer] = {}

    def get(fastpath: bool) -> LiveServer:
        if fastpath not in started:
            settings = Settings(
                static_dir=tmp_path_factory.mktemp("no-static"),
                heartbeat_timeout=TIMEOUT,
                ping_interval=600.0,
                fastpath=fastpath,
            )
            started[fastpath] = LiveServer(settings).start()
        return started[fastpath]

    yield get
    for live in started.values():
        live.stop()


@pytest.fixture
def proxied() -> Iterator[Callable[[LiveServer], DelayProxy]]:
    """``proxied(live)``: a proxy without delay in front of ``live``, stopped afterwards."""
    proxies: list[DelayProxy] = []

    def make(live: LiveServer) -> DelayProxy:
        proxy = DelayProxy("127.0.0.1", live.port, delay=0.0).__enter__()
        proxies.append(proxy)
        return proxy

    yield make
    for proxy in proxies:
        proxy.__exit__(None, None, None)


def _through(proxy: DelayProxy, live: LiveServer, room_id: str) -> str:
    return live.ws_url(room_id).replace(f":{live.port}/", f":{proxy.port}/")


@pytest.mark.parametrize("fastpath", [True, False], ids=["probe", "no-fastpath"])
async def test_a_silently_cut_player_is_noticed_within_the_documented_time(
    servers: Callable[[bool], LiveServer],
    connect: Callable[..., Any],
    proxied: Callable[[LiveServer], DelayProxy],
    fastpath: bool,
) -> None:
    live = servers(fastpath)
    room_id = await live.create_room()
    proxy = proxied(live)
    x = Client(await ws_connect(_through(proxy, live, room_id), proxy=None))
    o = await connect(live, room_id)
    try:
        await x.join(name="Ada")
        await o.join(name="Bob")
        assert (await x.reply({"type": "ping", "id": "p1"}))["type"] == "pong"
        proxy.blackhole()  # no close reaches the server, nothing more from the client
        cut = asyncio.get_running_loop().time()
        async with asyncio.timeout(NOTICED + SLACK):
            away = await o.until("presence", mark="X", connected=False)
        assert away["left"] is False  # a drop, not a leave: the long grace applies
        assert asyncio.get_running_loop().time() - cut < NOTICED + SLACK
        await o.close()
        await eventually(
            lambda: len(app_state(live.app).heartbeats) == 0, "the session let go of its watch"
        )
    finally:
        x.ws.transport.abort()


async def test_a_quiet_client_that_answers_websocket_pings_stays(
    servers: Callable[[bool], LiveServer], connect: Callable[..., Any]
) -> None:
    """A background tab's timers may fire once a minute; the browser still answers the
    server's WebSocket pings by itself, so its seat is not given up."""
    live = servers(True)
    heartbeats = app_state(live.app).heartbeats
    room_id = await live.create_room()
    x, o = await connect(live, room_id), await connect(live, room_id)
    await x.join(name="Ada")
    await o.join(name="Bob")
    await x.reply({"type": "ping", "id": "p1"})
    checked = heartbeats.checks
    await eventually(lambda: heartbeats.checks >= checked + 3, "three checks of the quiet client")
    assert x.close_code is None and not x.done
    assert (await x.reply({"type": "ping", "id": "p2"}))["type"] == "pong"
    assert not [e for e in o.log if e.get("type") == "presence"]  # never shown away


async def test_a_client_that_never_pings_is_not_held_to_a_heartbeat(
    servers: Callable[[bool], LiveServer], connect: Callable[..., Any]
) -> None:
    live = servers(True)
    heartbeats = app_state(live.app).heartbeats
    room_id = await live.create_room()
    x = await connect(live, room_id)
    await x.join(name="Ada")
    before = len(heartbeats)
    await x.reply({"type": "sync", "id": "s1"})
    assert len(heartbeats) == before
    await x.reply({"type": "ping", "id": "p1"})
    assert len(heartbeats) == before + 1


async def test_a_tournament_socket_answers_ping_and_keeps_the_heartbeat(
    servers: Callable[[bool], LiveServer],
) -> None:
    live = servers(True)
    async with httpx.AsyncClient(base_url=live.url) as http:
        made = await http.post("/api/players", json={"name": "Ada"})
        ada = {"id": made.json()["player_id"], "secret": made.json()["secret"]}
        answer = await http.post("/api/tournaments", json={"player": ada})
        tid = answer.json()["tournament_id"]
    follow = await Client.open(live, f"t/{tid}")
    try:
        assert (await follow.until("tournament"))["status"] == "open"
        await follow.send({"type": "ping", "id": "t1"})
        assert await follow.until("pong") == {"type": "pong", "ref": "t1"}
        heartbeats = app_state(live.app).heartbeats
        checked = heartbeats.checks
        await eventually(lambda: heartbeats.checks >= checked + 2, "the quiet follower checked")
        assert not follow.done  # it answered the WebSocket pings
        watched = len(heartbeats)
    finally:
        await follow.close()
    await eventually(lambda: len(heartbeats) == watched - 1, "the follower's watch let go")
