"""A join whose commit may have landed but failed (the store lost its answer, a retried
commit found it done) spends its connection: the session answers the error and closes with
1012, and the client joins again on a new connection with its join key (or token). On the
same socket, the departure recorded for the failed join could evict the retried one."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import pytest

from rooms import ErrorCode
from tests.support.live_server import LiveServer
from tests.support.lost_answers import lose_next_join_answer


@pytest.mark.parametrize("code", [ErrorCode.UNAVAILABLE, ErrorCode.ALREADY_JOINED])
async def test_the_connection_closes_and_the_key_gets_the_seat_again(
    code: ErrorCode,
    make_server: Callable[..., LiveServer],
    connect: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = make_server()
    lose_next_join_answer(server, monkeypatch, code)
    room_id = await server.create_room()
    key = secrets.token_urlsafe(16)
    first = await connect(server, room_id)
    refusal = await first.join(name="Ada", join_key=key)
    assert refusal["type"] == "error" and refusal["code"] == code.value
    assert await first.wait_closed() == 1012
    again = await connect(server, room_id)
    welcome = await again.join(name="Ada", join_key=key)
    assert welcome["type"] == "welcome" and welcome["mark"] == "X" and welcome["token"]
    opponent = await connect(server, room_id)
    assert (await opponent.join(name="Grace"))["mark"] == "O"
    await again.seen(opponent.version)
    assert (await again.move(1, 1))["type"] == "move_ok"  # still seated: not evicted


async def test_a_join_the_room_refused_keeps_the_connection(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    server = make_server()
    room_id = await server.create_room()
    for name in ("Ada", "Grace"):
        assert (await (await connect(server, room_id)).join(name=name))["type"] == "welcome"
    late = await connect(server, room_id)
    assert (await late.join(name="Bob"))["code"] == "room_full"
    assert (await late.join("spectator", name="Bob"))["type"] == "welcome"  # same socket
