"""docs/asyncapi.yaml stays true: it is an AsyncAPI 3.0 document whose references resolve and
whose schemas are valid JSON Schema; it names exactly the message types, events, error codes
and close codes the code knows, each event's fields in the order they are sent; and every
frame of a real server's traffic validates against it, both ways: a whole game with every
lifecycle command, a rematch, a resume, bad input, spectators on both paths, a rated game's
ratings, and a tournament's socket. Validation is ``jsonschema``'s (Draft 2020-12)."""

from __future__ import annotations

import json
import typing
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator
from websockets.asyncio.client import connect as ws_connect

from rooms import ErrorCode
from rooms.protocol import ClientType, ServerType
from rooms.room import Event, EventType
from rooms.room.events import type_of, wire_keys
from server import CloseCode
from tests.support.asyncapi import SCHEMAS, SPEC, best, validator
from tests.support.live_server import LiveServer
from tests.support.ws_client import Client

CLIENT, SERVER, TOURNAMENT = (
    validator("ClientMessage"),
    validator("ServerMessage"),
    validator("TournamentView"),
)


def types_of(name: str) -> set[str]:
    """The ``type`` values the schema ``name`` (a oneOf of messages) admits."""
    found: set[str] = set()
    schema = SCHEMAS[name]
    for option in schema.get("oneOf", [schema]):
        target = SCHEMAS[option["$ref"].rsplit("/", 1)[1]] if "$ref" in option else option
        if "oneOf" in target:
            found |= types_of(option["$ref"].rsplit("/", 1)[1])
            continue
        parts = target.get("allOf", [target])
        for part in parts:
            kind = part.get("properties", {}).get("type", {})
            found |= {kind["const"]} if "const" in kind else set(kind.get("enum", []))
    return found


# -- the document ----------------------------------------------------------------------


def refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def test_it_is_an_asyncapi_3_document_whose_references_resolve() -> None:
    assert SPEC["asyncapi"] == "3.0.0" and SPEC["info"]["version"] == "1"
    for ref in set(refs(SPEC)):
        assert ref.startswith("#/"), ref
        node: Any = SPEC
        for part in ref[2:].split("/"):
            assert part in node, f"{ref} does not resolve (at {part!r})"
            node = node[part]
    for name, operation in SPEC["operations"].items():
        assert operation["action"] in {"send", "receive"}, name
        channel = operation["channel"]["$ref"]
        for message in operation["messages"]:  # an operation's messages are its channel's
            assert message["$ref"].startswith(channel + "/messages/"), (name, message)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_schema_is_valid_json_schema(name: str) -> None:
    Draft202012Validator.check_schema(SCHEMAS[name])


def test_it_names_exactly_the_message_types_the_code_knows() -> None:
    assert types_of("ClientMessage") == {t.value for t in ClientType}
    replies = types_of("ServerMessage") - {t.value for t in EventType}
    assert replies == {t.value for t in ServerType}
    assert types_of("Event") == {t.value for t in EventType}


def test_it_names_exactly_the_error_and_close_codes_the_code_knows() -> None:
    assert set(SCHEMAS["ErrorCode"]["enum"]) == {code.value for code in ErrorCode}
    sent = {int(code) for code in CloseCode} - {CloseCode.POLICY}  # a 403, not a close
    assert set(SPEC["components"]["x-close-codes"]) == sent


EVENT_CLASSES = {type_of(kind): kind for kind in typing.get_args(Event)}


def event_properties(kind: str) -> list[str]:
    schema = next(
        SCHEMAS[option["$ref"].rsplit("/", 1)[1]]
        for option in SCHEMAS["Event"]["oneOf"]
        if kind in types_of_one(option)
    )
    if "allOf" in schema:  # the offer events share OfferEvent's fields
        schema = SCHEMAS[schema["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    return list(schema["properties"])


def types_of_one(option: dict[str, Any]) -> set[str]:
    target = SCHEMAS[option["$ref"].rsplit("/", 1)[1]]
    for part in target.get("allOf", [target]):
        kind = part.get("properties", {}).get("type", {})
        if "const" in kind:
            return {kind["const"]}
    return set()


@pytest.mark.parametrize("kind", sorted(EventType))
def test_each_events_fields_are_listed_in_the_order_they_are_sent(kind: EventType) -> None:
    assert event_properties(kind.value) == list(wire_keys(EVENT_CLASSES[kind]))


# -- real traffic --------------------------------------------------------------------------


class Recorded:
    """Every frame a test's clients sent and received, to validate at the end."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.clients: list[Client] = []

    async def open(self, live: LiveServer, room: str, *, watch: bool = False) -> Client:
        client = await Client.open(live, room, watch=watch)
        self.clients.append(client)
        return client

    async def reply(self, client: Client, message: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(message)
        return await client.reply(message)

    async def refused(self, client: Client, message: dict[str, Any]) -> dict[str, Any]:
        """Send what the spec does not allow: the server refuses it too, with an error."""
        assert list(CLIENT.iter_errors(message)), f"the spec allows {message}"
        return await client.reply(message)

    def received(self) -> list[dict[str, Any]]:
        return [message for client in self.clients for message in client.log]

    def check(self) -> set[str]:
        """Validate everything; the message types seen, both ways."""
        for message in self.sent:
            problems = [e.message for e in CLIENT.iter_errors(message)]
            assert not problems, f"sent {message}: {problems[:3]}"
        for message in self.received():
            errors = sorted(SERVER.iter_errors(message), key=lambda e: e.path)
            assert not errors, f"received {json.dumps(message)[:400]}: {best(errors)}"
        return {m["type"] for m in self.sent} | {m["type"] for m in self.received()}


@pytest.fixture
async def recorded() -> AsyncIterator[Recorded]:
    made = Recorded()
    yield made
    for client in made.clients:
        await client.close()


async def post(live: LiveServer, path: str, body: dict[str, Any]) -> httpx.Response:
    async with httpx.AsyncClient(base_url=live.url) as http:
        return await http.post(path, json=body)


async def identity(live: LiveServer, name: str) -> dict[str, str]:
    made = (await post(live, "/api/players", {"name": name})).json()
    return {"id": made["player_id"], "secret": made["secret"]}


async def test_a_whole_games_traffic_validates_both_ways(
    make_server: Callable[..., LiveServer], recorded: Recorded
) -> None:
    live = make_server(rate=1000.0, burst=1000, takeback_backoff=30.0)
    room = await live.create_room(time_control={"initial": 120, "increment": 2})
    ada = await identity(live, "Ada")
    x, o = await recorded.open(live, room), await recorded.open(live, room)
    crowd = await recorded.open(live, room, watch=True)
    early = await recorded.open(live, room)
    r = recorded.reply

    assert (await r(early, {"type": "sync", "id": "s0"}))["code"] == "not_joined"
    key = "k" * 30
    welcome = await r(x, {"type": "join", "as": "player", "name": "Ada", "join_key": key,
                          "player": ada, "protocol": 1})  # fmt: skip
    assert welcome["type"] == "welcome" and welcome["mark"] == "X"
    assert (await r(o, {"type": "join", "as": "player", "name": "Grace"}))["mark"] == "O"
    assert (await r(crowd, {"type": "join", "as": "spectator", "name": "Bob"}))["role"] == (
        "spectator"
    )
    assert (await r(early, {"type": "join", "as": "player"}))["code"] == "room_full"
    assert (await r(early, {"type": "join", "as": "spectator"}))["type"] == "welcome"

    async def move(client: Client, row: int, col: int, move_id: str) -> dict[str, Any]:
        await client.seen(max(c.version for c in (x, o)))
        return await r(client, {"type": "move", "row": row, "col": col,
                                "version": client.version, "move_id": move_id})  # fmt: skip

    async def guessed(guess: dict[str, Any]) -> None:
        """A guess that counts is not answered: the ping sent after it is answered first."""
        recorded.sent.append(guess)
        await crowd.send(guess)
        assert (await r(crowd, {"type": "ping", "id": f"after-{guess['id']}"}))["type"] == "pong"

    await crowd.seen(x.version)
    await guessed({"type": "guess", "row": 1, "col": 1, "version": crowd.version, "id": "g1"})
    assert (await move(x, 1, 1, "x1"))["type"] == "move_ok"
    await crowd.until("guesses")
    assert (await move(x, 1, 1, "x1"))["duplicate"] is True
    assert (await move(o, 1, 1, "o1"))["code"] == "occupied"
    assert (await r(o, {"type": "move", "row": 0, "col": 0, "version": 0, "move_id": "o0"}))[
        "code"
    ] == "stale_version"
    await crowd.seen(x.version)
    guess = {"type": "guess", "row": 0, "col": 0, "version": crowd.version, "id": "g1"}
    await guessed(guess)
    assert (await r(x, {**guess, "id": "g2"}))["code"] == "not_a_spectator"
    assert (await move(o, 0, 0, "o1"))["type"] == "move_ok"
    await crowd.until("guesses", ply=2)
    assert (await r(x, {"type": "sync", "id": "s1"}))["type"] == "state"
    assert (await r(crowd, {"type": "ping", "id": "p1"}))["type"] == "pong"
    assert (await r(crowd, {"type": "chat", "text": "nice", "id": "h1"}))["type"] == "ack"
    assert (await r(x, {"type": "chat", "text": "gl", "id": "h2"}))["type"] == "ack"
    assert (await r(x, {"type": "offer_draw", "id": "d1"}))["type"] == "ack"
    assert (await r(o, {"type": "decline_draw", "id": "d2"}))["type"] == "ack"
    assert (await r(o, {"type": "takeback", "id": "t1"}))["type"] == "ack"
    assert (await r(x, {"type": "accept_takeback", "id": "t2"}))["type"] == "ack"
    assert (await move(o, 2, 2, "o2"))["type"] == "move_ok"
    assert (await r(o, {"type": "takeback", "id": "t3"}))["type"] == "ack"
    assert (await r(x, {"type": "decline_takeback", "id": "t4"}))["type"] == "ack"
    too_soon = await r(o, {"type": "takeback", "id": "t5"})
    assert too_soon["code"] == "too_soon" and too_soon["retry_after"] > 0
    assert (await r(x, {"type": "claim", "result": "win", "id": "c1"}))["code"] == ("not_claimable")
    assert (await recorded.refused(x, {"type": "dance", "id": "u1"}))["code"] == "unknown_type"
    bad_move = {"type": "move", "row": 0, "col": 0, "version": x.version}  # no move_id
    assert (await recorded.refused(x, bad_move))["code"] == "bad_message"
    assert (await r(crowd, {"type": "resign", "id": "r0"}))["code"] == "not_a_player"
    assert (await r(x, {"type": "resign", "id": "r1"}))["type"] == "ack"
    await crowd.until("game_over")
    for seat, ref in ((x, "m1"), (o, "m2")):
        assert (await r(seat, {"type": "rematch", "id": ref}))["type"] == "ack"
    await crowd.until("new_game")
    assert (await r(x, {"type": "offer_draw", "id": "d3"}))["type"] == "ack"
    assert (await r(o, {"type": "accept_draw", "id": "d4"}))["type"] == "ack"
    await crowd.until("game_over", outcome={"reason": "agreement", "winner": None,
                                            "loser": None, "line": []})  # fmt: skip
    for seat, ref in ((x, "m3"), (o, "m4")):
        assert (await r(seat, {"type": "rematch", "id": ref}))["type"] == "ack"
    await crowd.until("new_game")
    assert (await r(o, {"type": "abort", "id": "a1"}))["type"] == "ack"

    # a resume with the token and the last version seen: the welcome lists what was missed
    token, last = welcome["token"], x.version
    await x.close()
    x_again = await recorded.open(live, room)
    back = await r(x_again, {"type": "join", "as": "player", "token": token,
                             "last_version": last - 3})  # fmt: skip
    assert back["type"] == "welcome" and back["missed"], back
    assert (await r(x_again, {"type": "leave", "id": "l1"}))["type"] == "ack"
    assert await x_again.wait_closed() == 1000

    seen = recorded.check()
    everything = {t.value for t in ClientType} | {t.value for t in ServerType}
    events = {t.value for t in EventType} - {"rated"}  # the rated room's test has it
    assert everything | events <= seen, sorted((everything | events) - seen)


async def test_a_rated_games_events_and_a_tournaments_socket_validate(
    make_server: Callable[..., LiveServer], recorded: Recorded
) -> None:
    live = make_server(rate=1000.0, burst=1000)
    ada, bob = await identity(live, "Ada"), await identity(live, "Bob")
    made = await post(live, "/api/rooms", {"rules": {}, "rated": True})
    room = made.json()["room_id"]
    x, o = await recorded.open(live, room), await recorded.open(live, room)
    assert (await recorded.reply(x, {"type": "join", "as": "player", "player": ada}))[
        "type"
    ] == "welcome"
    assert (await recorded.reply(o, {"type": "join", "as": "player", "player": bob}))[
        "type"
    ] == "welcome"
    for seat, (row, col), ref in zip(
        [x, o, x, o, x], [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)], "abcde", strict=True
    ):
        await seat.seen(max(x.version, o.version))
        message = {"type": "move", "row": row, "col": col, "version": seat.version,
                   "move_id": ref}  # fmt: skip
        assert (await recorded.reply(seat, message))["type"] == "move_ok"
    await x.until("rated")
    state = await recorded.reply(x, {"type": "sync", "id": "s"})
    assert state["state"]["rating_change"] is not None
    assert "rated" in recorded.check()

    made_t = await post(live, "/api/tournaments", {"name": "Cup", "player": ada})
    tid = made_t.json()["tournament_id"]
    async with ws_connect(f"ws://127.0.0.1:{live.port}/ws/t/{tid}?player={ada['id']}") as ws:
        view = json.loads(await ws.recv())
        assert not list(TOURNAMENT.iter_errors(view)), best(list(TOURNAMENT.iter_errors(view)))
    async with ws_connect(f"ws://127.0.0.1:{live.port}/ws/t/nothing-here") as ws:
        error = json.loads(await ws.recv())
        assert not list(SERVER.iter_errors(error)) and error["code"] == "not_found"
        await ws.wait_closed()
        assert ws.close_code == 4004
