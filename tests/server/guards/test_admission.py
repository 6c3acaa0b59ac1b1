"""Admission (server.guards.admission): a worker whose event loop runs late, for a whole second,
refuses new rooms, quick plays and joins without a token with ``unavailable`` and a
``retry_after``; players resuming with their token, spectators resuming with their
``last_version`` and the games in progress go on."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from rooms import ErrorCode, RoomError
from server.guards.admission import INTERVAL, WINDOW, LoopLag
from server.state import app_state
from tests.support.live_server import LiveServer
from tests.support.scrape import scrape, value
from tests.support.ws_client import table


def _lag_with(threshold: float, samples: list[tuple[float, float]]) -> LoopLag:
    lag = LoopLag(threshold)
    for now, late in samples:
        lag.observe(now, late)
    return lag


def test_one_slow_callback_is_not_an_overload() -> None:
    steady = [(t * INTERVAL, 0.001) for t in range(20)]
    spike = [*steady[:15], (1.5, 2.0), *steady[16:]]
    assert not _lag_with(0.5, steady).overloaded
    assert not _lag_with(0.5, spike).overloaded  # one late wake-up among on-time ones


def test_a_whole_late_window_is_an_overload_and_passes_with_it() -> None:
    late = _lag_with(0.5, [(t * 0.7, 0.6) for t in range(5)])
    assert late.overloaded
    with pytest.raises(RoomError) as refused:
        late.check("room")
    assert refused.value.code is ErrorCode.UNAVAILABLE
    assert refused.value.retry_after == WINDOW
    assert "overloaded (it runs 0.60 s late)" in refused.value.message
    late.observe(3.5, 0.6)
    late.observe(3.5 + WINDOW + 0.1, 0.001)  # the window moved past the late ones
    assert not late.overloaded
    late.check("room")


def test_a_threshold_of_zero_never_refuses() -> None:
    lag = _lag_with(0.0, [(t * 0.7, 5.0) for t in range(5)])
    assert not lag.overloaded
    lag.check("join")


@contextmanager
def overloaded(server: LiveServer) -> Iterator[None]:
    """The server's loop lag reads as 5 s late, then as on time again (the monitor stopped;
    the samples written in the server's own loop)."""
    lag = app_state(server.app).lag
    assert lag._task is not None
    loop = lag._task.get_loop()
    asyncio.run_coroutine_threadsafe(lag.close(), loop).result(10)
    lag.threshold = 0.5

    def feed(late: float) -> None:
        async def observe() -> None:
            lag._samples.clear()  # the monitor's on-time samples of the last second
            lag.observe(loop.time(), late)

        asyncio.run_coroutine_threadsafe(observe(), loop).result(10)

    feed(5.0)
    try:
        yield
    finally:
        feed(0.0)  # one on-time wake-up in the window: admitted again


async def test_newcomers_are_refused_and_the_game_goes_on(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    server = make_server()
    room_id, x, _, _ = await table(server, connect)
    assert x.welcome is not None
    token = x.welcome["token"]
    before = await scrape(server.url)
    with overloaded(server):
        async with httpx.AsyncClient(base_url=server.url) as http:
            room = await http.post("/api/rooms", json={"rules": {}})
            quick = await http.post("/api/quickplay", json={"rules": {}})
        for answer in (room, quick):
            assert answer.status_code == 503
            assert answer.json()["code"] == "unavailable"
            assert answer.json()["retry_after"] == WINDOW
            assert answer.headers["retry-after"] == "1"
        for role in ("player", "spectator"):
            newcomer = await connect(server, room_id)
            refusal = await newcomer.join(role)
            assert refusal["type"] == "error" and refusal["code"] == "unavailable"
            assert refusal["retry_after"] == WINDOW
        back = await connect(server, room_id)  # X again, with its token
        assert (await back.join(token=token))["type"] == "welcome"
        watcher = await connect(server, room_id)  # a spectator resuming its watch
        assert (await watcher.join("spectator", last_version=1))["type"] == "welcome"
        assert (await back.move(1, 1))["type"] == "move_ok"  # the game goes on
        late = await scrape(server.url)
    # The gauge is the process's: another live server of this test process may have set it
    # since, so only its presence is checked here.
    assert ("tictactoe_event_loop_lag_seconds", frozenset()) in late
    for what in ("room", "quickplay", "join"):
        refused = value(late, "tictactoe_admission_refusals_total", what=what)
        assert refused - value(before, "tictactoe_admission_refusals_total", what=what) >= 1
    async with httpx.AsyncClient(base_url=server.url) as http:
        assert (await http.post("/api/rooms", json={"rules": {}})).status_code == 201
