"""Web Push end to end on a real server: a browser's subscription stored over HTTP for an
identity, and a push for each turn and end of game the player misses, received by a push
service on the loopback (tests/support/push_service.py) that checks the VAPID token against
the server's published key and decrypts the message with the subscription's private keys.
A live game with both players present pushes nothing; a subscription the push service says
is gone (404, 410) is dropped; bad subscriptions and wrong secrets are refused, typed."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from tests.support.live_server import LiveServer
from tests.support.push_service import HANG, PushService
from tests.support.scrape import scrape, value
from tests.support.waiting import eventually
from tests.support.ws_client import Client

CONTACT = "mailto:operators@example.org"


@pytest.fixture
async def push_service() -> AsyncIterator[PushService]:
    service = await PushService().start()
    yield service
    await service.stop()


@pytest.fixture
async def pushing(make_server: Callable[..., LiveServer], push_service: PushService) -> LiveServer:
    """A server that pushes one message at a time (so they arrive in the order of their
    commits) and takes the loopback push service's http:// endpoints."""
    live = make_server(
        push_http_endpoints=True,
        push_contact=CONTACT,
        push_concurrency=1,
        rate=1000.0,
        bot_pool="thread",  # no bot here: a process pool would only slow the stop
    )
    async with httpx.AsyncClient(base_url=live.url) as http:
        key = (await http.get("/api/push/key")).json()["public_key"]
    push_service.vapid_public_key = key
    return live


async def identity(live: LiveServer, name: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=live.url) as http:
        made = await http.post("/api/players", json={"name": name})
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return {"id": body["player_id"], "secret": body["secret"]}


async def subscribe(
    live: LiveServer, player: dict[str, Any], body: Any, *, secret: str | None = None
) -> httpx.Response:
    headers = {"Authorization": f"Bearer {secret or player['secret']}"}
    async with httpx.AsyncClient(base_url=live.url) as http:
        return await http.post(f"/api/players/{player['id']}/push", json=body, headers=headers)


async def seated_pair(
    live: LiveServer, connect: Any, push_service: PushService
) -> tuple[str, Client, Client, dict[str, Any]]:
    """A room where Ada (X) and Grace (O) sit with identities, both subscribed: the room,
    their clients and Grace's identity."""
    ada, grace = await identity(live, "Ada"), await identity(live, "Grace")
    for player, name in ((ada, "ada"), (grace, "grace")):
        answer = await subscribe(live, player, push_service.subscription(name))
        assert answer.status_code == 201, answer.text
    room_id = await live.create_room()
    x, o = await connect(live, room_id), await connect(live, room_id)
    assert (await x.join(name="Ada", player=ada))["mark"] == "X"
    assert (await o.join(name="Grace", player=grace))["mark"] == "O"
    await x.seen(o.version)
    return room_id, x, o, grace


async def test_the_key_is_a_p256_point_every_request_reads_alike(pushing: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=pushing.url) as http:
        first, second = await http.get("/api/push/key"), await http.get("/api/push/key")
    assert first.status_code == 200 and first.headers["cache-control"] == "no-store"
    key = first.json()["public_key"]
    assert second.json() == {"public_key": key}
    raw = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert len(raw) == 65 and raw[0] == 4


async def test_an_absent_players_turn_and_end_arrive_signed_and_decrypted(
    pushing: LiveServer, connect: Any, push_service: PushService
) -> None:
    room_id, x, o, _ = await seated_pair(pushing, connect, push_service)
    assert (await x.move(0, 0))["type"] == "move_ok"  # both here: the sockets tell them
    await o.seen(x.version)
    assert (await o.move(1, 1))["type"] == "move_ok"
    await x.seen(o.version)
    await o.close()  # Grace closes the tab
    await x.until("presence", mark="O", connected=False)  # her seat's departure
    assert (await x.move(0, 1))["type"] == "move_ok"

    turn = await push_service.next()
    assert turn.name == "grace"
    assert turn.message == {
        "kind": "turn",
        "room_id": room_id,
        "version": x.version,
        "title": "Your move",
        "body": "Against Ada, move 4.",
        "url": f"/r/{room_id}",
        "tag": f"room:{room_id}",
    }
    assert turn.claims["sub"] == CONTACT and turn.claims["aud"] == push_service.origin
    assert int(turn.headers["ttl"]) > 0  # kept for a browser that is offline meanwhile

    assert (await x.act("resign"))["type"] == "ack"
    ended = await push_service.next()
    assert (ended.name, ended.message["kind"], ended.message["title"]) == (
        "grace",
        "ended",
        "You won",
    )
    # pushed one at a time, in commit order: anything for Ada, present throughout, or for
    # the moves both saw live would have come before these
    assert push_service.received == [] and push_service.refused == []


@pytest.mark.parametrize("status", [404, 410])
async def test_a_subscription_the_push_service_calls_gone_is_dropped(
    pushing: LiveServer, connect: Any, push_service: PushService, status: int
) -> None:
    _, x, o, grace = await seated_pair(pushing, connect, push_service)
    # Grace's second browser, subscribed later, still works; the first one is gone
    assert (await subscribe(pushing, grace, push_service.subscription("grace2"))).is_success
    push_service.answers["grace"] = status
    before = await scrape(pushing.url)
    await o.close()
    await x.until("presence", mark="O", connected=False)
    assert (await x.move(0, 0))["type"] == "move_ok"
    delivered = await push_service.next()  # tried in order: the gone one first
    assert delivered.name == "grace2" and delivered.message["kind"] == "turn"
    assert push_service.refused == [f"grace: answered {status}"]
    book = pushing.app.state.tictactoe.backend.push
    left = await book.of(grace["id"])
    assert [s.endpoint for s in left] == [f"{push_service.origin}/push/grace2"]
    after = await scrape(pushing.url)  # counters of the process: compared, not read
    for outcome in ("sent", "dropped"):
        grew = value(after, "tictactoe_push_messages_total", outcome=outcome) - value(
            before, "tictactoe_push_messages_total", outcome=outcome
        )
        assert grew == 1, outcome


async def test_a_push_service_that_never_answers_holds_up_nothing(
    make_server: Callable[..., LiveServer], connect: Any, push_service: PushService
) -> None:
    live = make_server(
        push_http_endpoints=True, push_timeout=0.5, push_concurrency=1, bot_pool="thread"
    )
    _, x, o, grace = await seated_pair(live, connect, push_service)
    push_service.answers["grace"] = HANG
    before = await scrape(live.url)
    await o.close()
    await x.until("presence", mark="O", connected=False)
    assert (await x.move(0, 0))["type"] == "move_ok"
    await eventually(lambda: push_service.hanging == 1, "the turn's push reached the service")
    # the push hangs: the game goes on meanwhile, and the worker's next notice waits its turn
    assert (await x.act("resign"))["type"] == "ack"
    await eventually(
        lambda: push_service.hanging == 2, "the end's push was sent once the first timed out"
    )
    after = await scrape(live.url)
    failed = value(after, "tictactoe_push_messages_total", outcome="failed") - value(
        before, "tictactoe_push_messages_total", outcome="failed"
    )
    assert failed >= 1 and push_service.received == []  # the second may have timed out too
    kept = await live.app.state.tictactoe.backend.push.of(grace["id"])
    assert len(kept) == 1  # a push service too slow is no reason to forget the browser


async def test_unsubscribing_forgets_the_browser(
    pushing: LiveServer, push_service: PushService
) -> None:
    grace = await identity(pushing, "Grace")
    assert (await subscribe(pushing, grace, push_service.subscription("grace"))).is_success
    endpoint = f"{push_service.origin}/push/grace"
    async with httpx.AsyncClient(base_url=pushing.url) as http:
        gone = await http.request(
            "DELETE",
            f"/api/players/{grace['id']}/push",
            json={"endpoint": endpoint},
            headers={"Authorization": f"Bearer {grace['secret']}"},
        )
    assert gone.status_code == 204
    assert await pushing.app.state.tictactoe.backend.push.of(grace["id"]) == []


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"endpoint": "ftp://push.example/1"}, "endpoint"),
        ({"endpoint": "https://user:pw@push.example/1"}, "endpoint"),
        ({"endpoint": 5}, "endpoint"),
        ({"keys": None}, "keys"),
        ({"keys": {"p256dh": "AAAA", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "keys.p256dh"),
        ({"keys": {"p256dh": None, "auth": "x"}}, "keys.p256dh"),
        ({"keys": {"auth": "!!"}}, "keys.p256dh"),
    ],
)
async def test_a_bad_subscription_is_refused_with_the_field_to_blame(
    pushing: LiveServer, push_service: PushService, change: dict[str, Any], field: str
) -> None:
    player = await identity(pushing, "Ada")
    body = {**push_service.subscription("ada"), **change}
    answer = await subscribe(pushing, player, body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "invalid_subscription"
    assert answer.json()["field"] == field


async def test_plain_http_endpoints_are_refused_unless_allowed(
    server: LiveServer, push_service: PushService
) -> None:
    player = await identity(server, "Ada")
    answer = await subscribe(server, player, push_service.subscription("ada"))
    assert answer.status_code == 422 and answer.json()["field"] == "endpoint"
    assert "https://" in answer.json()["message"]


async def test_only_the_identitys_secret_subscribes_it(
    pushing: LiveServer, push_service: PushService
) -> None:
    player = await identity(pushing, "Ada")
    body = push_service.subscription("ada")
    wrong = await subscribe(pushing, player, body, secret="x" * 43)
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_identity"
    assert wrong.headers["www-authenticate"].startswith("Bearer")
    stranger = {"id": "nobody0000000000", "secret": player["secret"]}
    unknown = await subscribe(pushing, stranger, body)
    assert unknown.status_code == 401 and unknown.json() == wrong.json() | {
        "message": unknown.json()["message"]
    }
    async with httpx.AsyncClient(base_url=pushing.url) as http:
        no_header = await http.post(f"/api/players/{player['id']}/push", json=body)
        cross_site = await http.post(
            f"/api/players/{player['id']}/push",
            json=body,
            headers={"Authorization": f"Bearer {player['secret']}", "Origin": "https://evil"},
        )
    assert no_header.status_code == 401
    assert cross_site.status_code == 403 and cross_site.json()["code"] == "origin_not_allowed"


async def test_a_correspondence_game_tells_its_absent_players_turn_and_flag(
    make_server: Callable[..., LiveServer], connect: Any, push_service: PushService
) -> None:
    """Days per move (a "day" of 2 s here): both players gone, Grace's turn is pushed, and
    when her day passes the store's deadline ends the game, which is pushed to both."""
    live = make_server(
        correspondence_day=2.0,
        deadline_scan=0.2,
        push_http_endpoints=True,
        push_concurrency=1,
        bot_pool="thread",
    )
    async with httpx.AsyncClient(base_url=live.url) as http:
        key = (await http.get("/api/push/key")).json()["public_key"]
        made = await http.post("/api/rooms", json={"time_control": {"days": 1}})
    push_service.vapid_public_key = key
    room_id = made.json()["room_id"]
    ada, grace = await identity(live, "Ada"), await identity(live, "Grace")
    for player, name in ((ada, "ada"), (grace, "grace")):
        assert (await subscribe(live, player, push_service.subscription(name))).is_success
    x, o = await connect(live, room_id), await connect(live, room_id)
    assert (await x.join(name="Ada", player=ada))["mark"] == "X"
    assert (await o.join(name="Grace", player=grace))["mark"] == "O"
    assert (await x.move(1, 1))["type"] == "move_ok"  # both here: nothing pushed
    await o.seen(x.version)
    assert (await o.move(0, 0))["type"] == "move_ok"
    await x.seen(o.version)
    await o.close()  # Grace will answer tomorrow
    await x.until("presence", mark="O", connected=False)
    assert (await x.move(0, 1))["type"] == "move_ok"
    await x.close()  # and Ada goes too
    turn = await push_service.next()
    assert (turn.name, turn.message["kind"], turn.message["room_id"]) == ("grace", "turn", room_id)
    ended: dict[str, dict[str, Any]] = {}
    for _ in range(2):  # Grace's day passes: the game ends on time, told to both
        received = await push_service.next()
        ended[received.name] = received.message
    assert {name: (m["kind"], m["title"]) for name, m in ended.items()} == {
        "ada": ("ended", "You won"),
        "grace": ("ended", "You lost"),
    }
    assert "a clock ran out" in ended["grace"]["body"]
    assert push_service.received == [] and push_service.refused == []
