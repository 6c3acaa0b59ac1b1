"""The engine driver (cli.bridge.driver) against real engine processes: the project's own
(``tictactoe engine``), the awk engine of engines/, and a shell engine that misbehaves in
every way the protocol names (engines/misbehaving.sh)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cli.bridge.driver import Engine
from cli.bridge.errors import (
    EngineCrashed,
    EngineProtocolError,
    EngineRefused,
    EngineStartFailed,
    EngineTimeout,
    IllegalEngineMove,
    UnsupportedRules,
)
from cli.bridge.protocol import ClockTimes
from core import Game, Move, Rules

pytestmark = pytest.mark.process

ENGINES = Path(__file__).parent / "engines"
AWK = ["awk", "-f", str(ENGINES / "first_free.awk")]
OWN = [sys.executable, "-m", "cli", "engine"]


def misbehaving(mode: str) -> list[str]:
    return ["sh", str(ENGINES / "misbehaving.sh"), mode]


def played(*moves: tuple[int, int]) -> Game:
    game = Game(Rules())
    for row, col in moves:
        game.play(Move(row, col))
    return game


async def test_the_awk_engine_shakes_hands_and_plays_a_whole_game_against_itself() -> None:
    async with await Engine.start(AWK) as engine:
        assert engine.info is not None
        assert (engine.info.name, engine.info.version) == ("first-free.awk", "1")
        game = Game(Rules())
        while not game.is_over:
            game.play(await engine.best_move(game, movetime=1.0))
        assert game.history[:2] == (Move(1, 1), Move(0, 0))  # the centre, then the first free
    assert engine.returncode == 0  # it ended on quit


async def test_the_projects_engine_plays_with_a_clock_and_in_3d() -> None:
    async with await Engine.start([*OWN, "--level", "medium", "--seed", "3"]) as engine:
        clock = ClockTimes({"X": 12.0, "O": 11.5}, 1.0)
        move = await engine.best_move(played((1, 1)), movetime=0.5, clock=clock)
        assert played((1, 1)).play(move) == move
        cube = Game(Rules(rows=4, cols=4, layers=4, gravity=True))
        cube.play(await engine.best_move(cube, movetime=0.5))
        assert cube.history[0].layer == 0  # gravity: it named the cell the piece lands on
    assert engine.returncode == 0


async def test_a_game_the_engine_did_not_declare_is_never_asked() -> None:
    async with await Engine.start(AWK) as engine:
        with pytest.raises(UnsupportedRules, match="does not play 6×7 k=4 gravity"):
            await engine.best_move(Game(Rules(rows=6, cols=7, k=4, gravity=True)), movetime=1)
        assert (await engine.best_move(Game(Rules()), movetime=1)) == Move(1, 1)  # still fine


async def test_a_crash_is_typed_with_the_exit_code_and_the_engines_last_words() -> None:
    said: list[str] = []
    engine = await Engine.start(misbehaving("crash"), on_stderr=said.append)
    with pytest.raises(EngineCrashed) as caught:
        await engine.best_move(played(), movetime=1.0)
    assert caught.value.returncode == 3
    assert caught.value.stderr == ("giving up on purpose",) and said == ["giving up on purpose"]
    assert "engine stderr: giving up on purpose" in caught.value.report()
    with pytest.raises(EngineCrashed):  # it stays broken: nothing is asked of it again
        await engine.best_move(played(), movetime=1.0)
    assert await engine.quit() == 3


async def test_a_crash_between_moves_is_found_at_the_next_question() -> None:
    engine = await Engine.start(misbehaving("crash_later"))
    assert await engine.best_move(played(), movetime=1.0) == Move(1, 1)
    with pytest.raises(EngineCrashed, match="exited with code 4"):
        await engine.best_move(played((1, 1)), movetime=1.0)
    await engine.quit()


async def test_an_engine_that_does_not_answer_in_time_is_stopped() -> None:
    engine = await Engine.start(misbehaving("slow"))
    with pytest.raises(EngineTimeout, match="no move answer in time") as caught:
        await engine.best_move(played(), movetime=0.1)
    assert caught.value.phase == "move"
    assert engine.returncode is not None  # killed: a late answer can never be misread
    with pytest.raises(EngineTimeout):
        await engine.best_move(played(), movetime=0.1)


async def test_an_engine_that_never_shakes_hands_times_out_and_is_stopped() -> None:
    with pytest.raises(EngineTimeout, match="no handshake answer") as caught:
        await Engine.start(misbehaving("mute"), handshake_timeout=0.3)
    assert caught.value.phase == "handshake"


async def test_an_illegal_move_is_refused_and_reported_with_the_rules_reason() -> None:
    engine = await Engine.start(misbehaving("illegal"))
    assert await engine.best_move(played(), movetime=1.0) == Move(0, 0)
    with pytest.raises(IllegalEngineMove, match=r"illegal move .0,0.: a1 .* is taken") as caught:
        await engine.best_move(played((0, 0)), movetime=1.0)
    assert caught.value.move == "0,0"
    await engine.quit()


@pytest.mark.parametrize(
    ("mode", "error", "message"),
    [
        ("garbage", EngineProtocolError, "malformed bestmove: a cell is row,col"),
        ("refuse", EngineRefused, "refused to move: cannot think today"),
    ],
)
async def test_a_wrong_answer_is_typed(mode: str, error: type[Exception], message: str) -> None:
    async with await Engine.start(misbehaving(mode)) as engine:
        with pytest.raises(error, match=message):
            await engine.best_move(played(), movetime=1.0)


async def test_info_and_stray_lines_are_logged_not_taken_for_the_answer() -> None:
    heard: list[str] = []
    async with await Engine.start(misbehaving("chatty"), on_info=heard.append) as engine:
        assert await engine.best_move(played(), movetime=1.0) == Move(2, 2)
    assert heard == ["starting up", "depth 1", "debug text an engine forgot"]


async def test_a_command_that_cannot_run_is_a_start_failure() -> None:
    with pytest.raises(EngineStartFailed, match="no-such-engine"):
        await Engine.start("/nonexistent/no-such-engine --fast")
    with pytest.raises(EngineStartFailed, match="empty"):
        await Engine.start("   ")
    with pytest.raises(EngineStartFailed, match="cannot read"):
        await Engine.start('awk "-f')
