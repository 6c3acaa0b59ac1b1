"""Every error code, provoked over a real WebSocket; after each, the room is unchanged and
the connection still open (honest mistakes never close it)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rooms import ErrorCode
from tests.support.live_server import LiveServer
from tests.support.ws_client import Client

HTTP_ONLY = {
    ErrorCode.INVALID_RULES,
    ErrorCode.NOT_FOUND,
    ErrorCode.UNAVAILABLE,
    ErrorCode.INVALID_OPTIONS,
    ErrorCode.ORIGIN_NOT_ALLOWED,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    ErrorCode.INVALID_NAME,
    ErrorCode.PLAYER_NOT_FOUND,
    ErrorCode.TOURNAMENT_CLOSED,
    ErrorCode.TOURNAMENT_FULL,
    ErrorCode.NOT_CREATOR,
}
"""Provoked in test_http_api.py, test_http_lifecycle.py, test_write_guard.py,
test_players_api.py and test_tournaments_api.py (tests/rooms/tournaments for
tournament_closed)."""
SERVICE_ONLY = {ErrorCode.BUSY, ErrorCode.OUT_OF_TIME}
"""Needs a compare-and-set race lost 64 times in a row, or a move landing between a flag
and the timer that commits it (never deterministic over a socket): tests/rooms."""
LIFECYCLE = {
    ErrorCode.NOT_FINISHED,
    ErrorCode.CANNOT_ABORT,
    ErrorCode.OFFER_PENDING,
    ErrorCode.NO_OFFER,
    ErrorCode.TOO_SOON,
    ErrorCode.NOTHING_TO_TAKE_BACK,
    ErrorCode.BOT_OPPONENT,
    ErrorCode.NOT_CLAIMABLE,
    ErrorCode.CHAT_TOO_LONG,
}
"""Provoked over a WebSocket in test_lifecycle_errors.py."""
RATED = {
    ErrorCode.NOT_RATED,
    ErrorCode.IDENTITY_REQUIRED,
    ErrorCode.IDENTITY_SEATED,
    ErrorCode.RATED_GAME,
}
"""Need a rated room (and identities): provoked in test_rated.py, which also checks that
they leave the room unchanged."""
BOTS = {
    ErrorCode.BOTS_NOT_ALLOWED,
    ErrorCode.BOTS_ONLY,
    ErrorCode.BOT_TOKEN_REQUIRED,
    ErrorCode.BOT_LIMIT,
    ErrorCode.BOT_OFFLINE,
}
"""Need bot accounts and their tokens: provoked in tests/server/bot_api (test_tokens.py,
test_challenges.py, test_spec.py)."""
PUSH = {ErrorCode.INVALID_SUBSCRIPTION}
"""An HTTP refusal of a Web Push subscription: tests/server/api/test_push.py."""
GUESSES = {ErrorCode.NOT_A_SPECTATOR, ErrorCode.GUESSES_CLOSED}
"""A spectator's guess refused: provoked in test_guesses.py and, in a room watched with a
delay, tests/server/api/test_watch_delay.py (a guess never changes the room at all)."""


class Scenario:
    def __init__(self, server: LiveServer, room_id: str) -> None:
        self.server = server
        self.room_id = room_id
        self.provoked: set[str] = set()

    async def expect(
        self, client: Client, message: dict[str, Any] | str, code: str, ref: str | None = None
    ) -> dict[str, Any]:
        before = await self.server.stored(self.room_id)
        error = await client.reply(message) if isinstance(message, dict) else None
        if error is None:
            await client.send(message)
            error = await client.until("error")
        assert (error["type"], error["code"]) == ("error", code), error
        assert error["message"] and error["ref"] == ref
        assert await self.server.stored(self.room_id) == before, f"{code} changed the room"
        assert not client.done, f"{code} closed the connection"
        self.provoked.add(code)
        return error


async def test_every_error_code_leaves_the_room_unchanged(
    server: LiveServer, make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room({"rows": 3, "cols": 3})
    s = Scenario(server, room_id)
    x, o, spectator = [await connect(server, room_id) for _ in range(3)]

    await s.expect(x, "this is not json", "bad_message")
    await s.expect(x, {"type": "dance", "id": "d"}, "unknown_type", "d")
    await s.expect(x, {"type": "resign"}, "not_joined")
    await s.expect(x, {"type": "ping", "pad": "x" * 5000}, "too_large")
    await s.expect(
        x, {"type": "move", "row": 0, "col": 0, "version": 0, "move_id": "m0"}, "not_joined", "m0"
    )
    await s.expect(x, {"type": "join", "as": "player", "protocol": 2}, "unsupported_protocol")
    await s.expect(x, {"type": "join", "as": "player", "name": "n" * 40}, "bad_message")
    await s.expect(x, '{"type": "join", "as": "player", "name": "a\\ud800"}', "bad_message")
    await s.expect(x, {"type": "join", "as": "player", "token": "nope"}, "bad_token")
    assert (await x.join(name="X"))["type"] == "welcome"
    await s.expect(x, {"type": "join", "as": "spectator"}, "already_joined")
    await s.expect(
        x,
        {"type": "move", "row": 0, "col": 0, "version": x.version, "move_id": "early"},
        "not_started",
        "early",
    )
    await o.join(name="O")
    await spectator.join("spectator")
    await x.seen(spectator.version)
    await s.expect(
        spectator,
        {"type": "move", "row": 0, "col": 0, "version": x.version, "move_id": "spec"},
        "not_a_player",
        "spec",
    )
    await s.expect(
        o,
        {"type": "move", "row": 0, "col": 0, "version": x.version, "move_id": "o1"},
        "not_your_turn",
        "o1",
    )
    await s.expect(
        x,
        {"type": "move", "row": 3, "col": 0, "version": x.version, "move_id": "oob"},
        "out_of_bounds",
        "oob",
    )
    await s.expect(
        x,
        {"type": "move", "col": 0, "version": x.version, "move_id": "mal"},
        "malformed_move",
        "mal",
    )
    await s.expect(
        x,
        {"type": "move", "row": 0, "col": 0, "version": x.version + 5, "move_id": "ahead"},
        "stale_version",
        "ahead",
    )
    stale_version = x.version
    ok = await x.move(1, 1, move_id="x1")
    assert ok["type"] == "move_ok"
    await o.seen(ok["version"])
    await s.expect(
        o,
        {"type": "move", "row": 0, "col": 0, "version": stale_version, "move_id": "old"},
        "stale_version",
        "old",
    )
    await s.expect(
        o,
        {"type": "move", "row": 1, "col": 1, "version": o.version, "move_id": "taken"},
        "occupied",
        "taken",
    )
    stranger = await connect(server, room_id)
    await s.expect(stranger, {"type": "join", "as": "player"}, "room_full")
    nobody = {"id": "AAAAAAAAAAAAAAAA", "secret": "not the secret of anyone"}
    await s.expect(stranger, {"type": "join", "as": "player", "player": nobody}, "bad_identity")
    for cells in [(o, 0, 0), (x, 1, 0), (o, 0, 1), (x, 1, 2)]:
        client, row, col = cells
        await client.seen(x.version if client is o else o.version)
        assert (await client.move(row, col))["type"] == "move_ok"
    await o.seen(x.version)
    await s.expect(
        o,
        {"type": "move", "row": 2, "col": 2, "version": o.version, "move_id": "late"},
        "game_over",
        "late",
    )

    # column_full needs gravity
    tall = await server.create_room({"rows": 2, "cols": 3, "k": 2, "gravity": True})
    gx, go = await connect(server, tall), await connect(server, tall)
    await gx.join()
    await gx.seen((await go.join())["version"])
    assert (await gx.move(None, 0))["type"] == "move_ok"
    await go.seen(gx.version)
    assert (await go.move(None, 0))["type"] == "move_ok"
    await gx.seen(go.version)
    gravity = Scenario(server, tall)
    await gravity.expect(
        gx, {"type": "move", "col": 0, "version": gx.version, "move_id": "f"}, "column_full", "f"
    )
    s.provoked |= gravity.provoked

    # rate_limited needs a server with a tiny bucket
    limited = make_server(rate=0.001, burst=2, flood_strikes=50)
    slow_room = await limited.create_room()
    client = await connect(limited, slow_room)
    limited_scenario = Scenario(limited, slow_room)
    assert (await client.join("spectator"))["type"] == "welcome"
    assert (await client.reply({"type": "ping"}))["type"] == "pong"
    await limited_scenario.expect(client, {"type": "ping", "id": "p3"}, "rate_limited")
    s.provoked |= limited_scenario.provoked

    # internal_error: a corrupted stored room is refused, never served. (The store is
    # called from this thread; nobody subscribes to this room yet, so nothing is published.)
    broken = await server.create_room()
    store = server.app.state.tictactoe.backend.store
    stored = await store.load(broken)
    data = json.loads(stored.data)
    data["game"]["moves"] = [0, 0]
    assert await store.commit(broken, 0, json.dumps(data), '{"type":"x","version":1}', listed=False)
    victim = await connect(server, broken)
    error = await victim.join()
    assert error["code"] == "internal_error"
    # a join that failed for another reason than a refusal may have landed: its connection
    # id is spent, so the server closes it and the client joins again (refusals.py)
    assert await victim.wait_closed() == 1012
    assert (await store.load(broken)).version == 1  # nothing written by the refused join
    s.provoked.add("internal_error")

    elsewhere = HTTP_ONLY | SERVICE_ONLY | LIFECYCLE | RATED | GUESSES | BOTS | PUSH
    missing = {code.value for code in ErrorCode} - elsewhere - s.provoked
    assert missing == {"room_not_found"}  # closes the socket: test_edge.py provokes it
