"""``tictactoe bot`` as a bot account (docs/protocol.md, "Bots"): the awk engine, through the
bridge and the client library's bot socket, declines a challenge its handshake does not
cover, accepts one it does, and plays the person who made it on a real server; its token
never shows in what the bridge writes. The bridge connects through tests/support/spec_relay.py:
every frame of its bot and room sockets, both ways, is checked against docs/asyncapi.yaml."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.asyncapi import validator
from tests.support.bots import challenge, make_bot
from tests.support.live_server import LiveServer
from tests.support.spec_relay import SpecRelay
from tests.support.waiting import eventually
from tests.support.ws_client import WAIT

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[3]
AWK = f"awk -f {Path(__file__).parent / 'engines' / 'first_free.awk'}"
OWN = f"{sys.executable} -m cli engine --level perfect --seed 2"
SERVER_MESSAGE = validator("ServerMessage")
BOTH_SOCKETS = {("bot", "send"), ("bot", "receive"), ("room", "send"), ("room", "receive")}


async def start_bridge(relay: SpecRelay, token_file: Path, engine: str, *flags: str) -> Any:
    """The bridge, connected through ``relay``: every frame of its sockets is checked."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cli", "bot", "--connect", relay.url, "--token-file",
        str(token_file), "--engine", engine, *flags,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip


async def finished(*bridges: Any, timeout: float) -> list[tuple[bytes, bytes]]:
    """Each bridge's stdout and stderr once every one has exited. One still running after
    ``timeout`` is killed, and the failure shows what each wrote: which bot waited, and
    for what (``communicate`` under a timeout would lose it)."""

    async def read(stream: asyncio.StreamReader, into: list[bytes]) -> None:
        while chunk := await stream.read(4096):
            into.append(chunk)

    said: list[tuple[list[bytes], list[bytes]]] = [([], []) for _ in bridges]
    readers = [
        asyncio.create_task(read(stream, into))
        for bridge, (out, err) in zip(bridges, said, strict=True)
        for stream, into in ((bridge.stdout, out), (bridge.stderr, err))
    ]
    try:
        await asyncio.wait_for(asyncio.gather(*(bridge.wait() for bridge in bridges)), timeout)
    except TimeoutError:
        running = [index for index, bridge in enumerate(bridges) if bridge.returncode is None]
        for index in running:
            bridges[index].kill()
        await asyncio.gather(*(bridge.wait() for bridge in bridges), *readers)
        told = "\n".join(
            f"bridge {index}: " + b"".join(err).decode(errors="replace")[-3000:]
            for index, (_, err) in enumerate(said)
        )
        raise AssertionError(f"bridges {running} still ran after {timeout:g} s:\n{told}") from None
    await asyncio.gather(*readers)
    return [(b"".join(out), b"".join(err)) for out, err in said]


async def token_file(tmp_path: Path, account: dict[str, Any]) -> Path:
    path = tmp_path / f"{account['player_id']}.token"
    path.write_text(account["token"] + "\n")
    return path


async def online(server: LiveServer, bot_id: str) -> bool:
    async with httpx.AsyncClient(base_url=server.url) as http:
        listed = (await http.get("/api/bots")).json()["bots"]
    return any(bot["player_id"] == bot_id for bot in listed)


async def said_online(bot: Any) -> str:
    """What the bridge wrote until it said it is online (its start may take a while on a busy
    machine: a process, its engine's, and the bot socket's hello)."""
    said = ""
    while "bot: online as the bot" not in said:
        line = await asyncio.wait_for(bot.stderr.readline(), WAIT * 3)
        assert line, f"the bridge ended before it was online: {said}"
        said += line.decode()
    return said


async def test_a_bot_account_declines_what_its_engine_cannot_play_and_plays_the_rest(
    server: LiveServer, connect: Callable[..., Any], tmp_path: Path
) -> None:
    account = await make_bot(server, "Awk Bot")
    relay = await SpecRelay(server.port).start()
    bot = await start_bridge(relay, await token_file(tmp_path, account), AWK, "--games", "1")
    try:
        said = await said_online(bot)
        assert await online(server, account["player_id"])

        connect_four = {"rows": 6, "cols": 7, "k": 4, "gravity": True}
        refused = await challenge(
            server, account["player_id"], {"name": "Ada", "rules": connect_four}
        )
        assert refused.status_code == 201, refused.text
        loser = await connect(server, refused.json()["room_id"])
        welcome = await loser.join(token=refused.json()["token"])
        # declined at once: before this join (the welcome shows it) or after (an event)
        state = welcome["state"]
        if state["status"] != "finished":
            state = await loser.until("game_over")
        assert state["outcome"]["reason"] == "aborted"

        made = await challenge(server, account["player_id"], {"name": "Ada"})
        assert made.status_code == 201, made.text
        offer = made.json()
        person = await connect(server, offer["room_id"])
        welcome = await person.join(token=offer["token"])
        if welcome["state"]["status"] != "playing":  # the bot accepts before or after this
            await person.until("player_joined", status="playing")
        assert offer["mark"] == "X"
        answers = []
        for cell in [(0, 0), (2, 2), (2, 1), (2, 0)]:
            assert (await person.move(*cell))["type"] == "move_ok"
            if cell != (2, 0):
                moved = await person.until("moved", mark="O")
                answers.append((moved["row"], moved["col"]))
                await person.seen(moved["version"])
        assert answers == [(1, 1), (0, 1), (0, 2)]
        _, err_bytes = await asyncio.wait_for(bot.communicate(), WAIT * 2)
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.communicate()
        await relay.stop()
    err = said + err_bytes.decode()
    assert bot.returncode == 0, err
    assert "bot: online as the bot Awk Bot" in err
    assert "declined Ada's challenge: the engine does not play 6×7 k=4 gravity" in err
    assert "accepted Ada's challenge: 3×3 k=3" in err
    assert f"[{offer['room_id']}] the game is over: X wins by line; the engine lost" in err
    assert account["token"] not in err and account["token"].split(".")[-1] not in err
    snapshot = await server.snapshot(offer["room_id"])
    assert [seat["bot_account"] for seat in snapshot["players"]] == [False, True]
    for message in loser.log + person.log:  # every frame the person got is in the spec
        problems = [error.message for error in SERVER_MESSAGE.iter_errors(message)]
        assert not problems, (message, problems)
    assert relay.saw() == BOTH_SOCKETS and not relay.invalid, (relay.counts, relay.invalid)


async def test_a_bot_challenges_another_to_a_rated_game_in_the_bots_pool(
    server: LiveServer, tmp_path: Path
) -> None:
    awk, own = await make_bot(server, "Awk Bot"), await make_bot(server, "Perfect Bot")
    async with SpecRelay(server.port) as relay:
        waiting = await start_bridge(relay, await token_file(tmp_path, awk), AWK, "--games", "1")
        said = await said_online(waiting)
        challenger = await start_bridge(
            relay, await token_file(tmp_path, own), OWN, "--games", "1",
            "--challenge", awk["player_id"], "--rated",
        )  # fmt: skip
        outs = await finished(waiting, challenger, timeout=WAIT * 3)
    assert relay.saw() == BOTH_SOCKETS and not relay.invalid, (relay.counts, relay.invalid)
    (_, waiting_err), (_, challenger_err) = outs
    waited, challenged = said + waiting_err.decode(), challenger_err.decode()
    assert waiting.returncode == 0, waited
    assert challenger.returncode == 0, challenged
    assert "accepted Perfect Bot's challenge: 3×3 k=3" in waited
    assert f"challenged the bot {awk['player_id']} to a rated game in " in challenged
    room_id = challenged.split(" to a rated game in ")[1].split()[0]
    snapshot = await server.snapshot(room_id)
    assert snapshot["rated"] is True and snapshot["pool"].startswith("bot.")
    assert snapshot["status"] == "finished"
    # the perfect engine, moving first, beats the awk engine's first free cells
    assert snapshot["outcome"]["winner"] == "X" and "the engine won" in challenged

    async def rated() -> Any:
        change = (await server.snapshot(room_id))["rating_change"]
        return change["rating_change"] if change else None

    change = await eventually(rated, "the game rated", timeout=WAIT)
    assert {change["X"]["player_id"], change["O"]["player_id"]} == {
        own["player_id"],
        awk["player_id"],
    }
    assert change["X"]["after"] > change["X"]["before"] > change["O"]["after"]


async def test_a_refused_token_plays_nothing(server: LiveServer, tmp_path: Path) -> None:
    fake = {"player_id": "nobody", "token": "tb1.nobody.not-a-token-0123456789abcdefghijklmn"}
    async with SpecRelay(server.port) as relay:
        bot = await start_bridge(relay, await token_file(tmp_path, fake), AWK)
        _, err = await asyncio.wait_for(bot.communicate(), WAIT * 2)
    assert relay.saw() == {("bot", "send"), ("bot", "receive")} and not relay.invalid, (
        relay.counts,
        relay.invalid,
    )
    assert bot.returncode == 2, err.decode()
    assert "bot: error: the bot socket refused the token: bad_identity" in err.decode()
