"""Spectators who guess the next move, over a real server: the split reaches every spectator
after the move with their own guess and streak, a changed guess counts once, every refusal
has its code, the players never receive any of it, and with two workers on one Redis each
worker's spectators see the whole crowd's split."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.support.live_server import LiveServer
from tests.support.ws_client import Client, table


async def guess(client: Client, row: int, col: int, **fields: Any) -> dict[str, Any]:
    """Send a guess against the latest version seen, then a ping: the guess's ``error``, or
    the ``pong`` when it counted (a guess that counts is not answered: the ping's ``pong`` is
    the first reply)."""
    message = {"type": "guess", "row": row, "col": col, "version": client.version, **fields}
    message.setdefault("id", f"g{len(client.log)}")
    ping = f"p{len(client.log)}"
    await client.send(message)
    answer = await client.reply({"type": "ping", "id": ping})
    if answer["type"] == "error":  # answered before the ping, as the guess came first
        assert answer["ref"] == message["id"]
        await client.until("pong", ref=ping)
    return answer


async def test_every_spectator_sees_the_split_and_their_streak(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id, x, o, ann = await table(server, connect)
    bob = await connect(server, room_id, watch=True)
    await bob.join("spectator", name="Bob")
    await x.seen(bob.version)
    await ann.seen(bob.version)
    assert (await guess(ann, 0, 0))["type"] == "pong"
    assert (await guess(ann, 1, 1))["type"] == "pong"  # changed: only this one counts
    assert (await guess(bob, 2, 2))["type"] == "pong"
    ok = await x.move(1, 1)
    for spectator in (ann, bob):
        await spectator.seen(ok["version"])
    # the next move guessed at once, as the split may still be on its way: it counts for
    # the next move and changes nothing of this one's
    assert (await guess(ann, 0, 0))["type"] == "pong"
    first = await ann.until("guesses", ply=1)
    assert first["move"] == {"row": 1, "col": 1, "layer": 0}
    assert (first["total"], first["right"]) == (2, 1)
    assert sorted((c["row"], c["col"], c["count"]) for c in first["split"]) == [
        (1, 1, 1),
        (2, 2, 1),
    ]
    assert first["you"] == {"guess": {"row": 1, "col": 1, "layer": 0}, "right": True, "streak": 1}
    theirs = await bob.until("guesses", ply=1)
    assert theirs["split"] == first["split"] and theirs["total"] == 2
    assert theirs["you"] == {"guess": {"row": 2, "col": 2, "layer": 0}, "right": False, "streak": 0}

    await o.seen(ok["version"])
    assert (await guess(ann, 0, 0))["type"] == "pong"
    ok = await o.move(0, 0)
    second = await ann.until("guesses", ply=2)
    assert second["you"]["streak"] == 2 and (second["total"], second["right"]) == (1, 1)
    others = await bob.until("guesses", ply=2)  # bob did not guess: the split, no guess
    assert others["you"] == {"guess": None, "right": None, "streak": 0}

    # the players' sockets never get a split: everything sent after it to them arrived
    await x.seen(ok["version"])
    assert (await x.reply({"type": "ping", "id": "p"}))["type"] == "pong"
    assert (await o.reply({"type": "ping", "id": "p"}))["type"] == "pong"
    for player in (x, o):
        assert not [m for m in player.log if m["type"] == "guesses" or "split" in m]


async def test_a_refused_guess_gets_its_code(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    x = await connect(server, room_id)
    await x.join()
    early = await connect(server, room_id, watch=True)
    await early.join("spectator")
    assert (await guess(early, 0, 0))["code"] == "not_started"
    o = await connect(server, room_id)
    await o.join()
    await early.seen(o.version)
    await x.seen(o.version)
    assert (await guess(x, 0, 0))["code"] == "not_a_spectator"
    assert (await guess(early, 3, 0))["code"] == "out_of_bounds"
    assert (await guess(early, 0, 0, version=early.version + 5))["code"] == "stale_version"
    malformed = {"type": "guess", "row": 0, "col": "a", "version": early.version, "id": "g"}
    assert (await early.reply(malformed))["code"] == "malformed_move"
    missing = {"type": "guess", "row": 0, "col": 0, "id": "g"}
    assert (await early.reply(missing))["code"] == "bad_message"
    version = early.version
    ok = await x.move(1, 1)
    await early.seen(ok["version"])
    stale = await guess(early, 0, 0, version=version)
    assert (stale["code"], stale["ref"]) == ("stale_version", stale["ref"])
    assert (await guess(early, 1, 1))["code"] == "occupied"
    await o.seen(ok["version"])
    assert (await o.act("resign"))["type"] == "ack"
    await early.until("game_over")
    assert (await guess(early, 0, 0))["code"] == "game_over"


async def test_two_workers_split_the_whole_crowd(
    redis_url: str, make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    one = make_server(store_url=redis_url, bot_pool="thread")
    two = make_server(store_url=redis_url, bot_pool="thread")
    room_id, x, o, near = await table(one, connect)
    far = await connect(two, room_id, watch=True)
    await far.join("spectator", name="Far")
    await near.seen(far.version)
    assert (await guess(near, 0, 2))["type"] == "pong"
    assert (await guess(far, 0, 2))["type"] == "pong"
    ok = await x.move(0, 2)
    for spectator in (near, far):
        split = await spectator.until("guesses", ply=1)
        assert (split["total"], split["right"]) == (2, 2)
        assert split["you"]["streak"] == 1
    await x.seen(ok["version"])
    assert (await x.reply({"type": "ping", "id": "p"}))["type"] == "pong"
    assert not [m for m in x.log + o.log if m["type"] == "guesses"]
