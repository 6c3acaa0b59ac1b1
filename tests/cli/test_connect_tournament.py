"""``tictactoe play --connect URL/t/ID``: terminal entrants of a tournament on a live server.

Terminal processes (each with an identity file of its own) enter a tournament, follow its live
socket and play each of their games when ``your_game`` names it, with ``--bot`` or typed at
the keyboard (a script on stdin), and print the final standings the server has; entering a
tournament that cannot be entered is one clear line. Also: ``--bot`` in a room, a game the
opponent resigns (the tournament socket itself: tests/client/test_tournament_feed.py).
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from cli.terminal.identity_file import Identity, IdentityFile, default_path
from cli.terminal.tournament_play import _Entrant, render_standings
from client import TournamentLink
from tests.support.cli_process import finish, start_cli
from tests.support.live_server import LiveServer
from tests.support.waiting import eventually
from tests.support.ws_client import WAIT

pytestmark = pytest.mark.process  # every test here runs the terminal client

ROW = re.compile(r"^[ >]\s*(\d+)[= ] (.+?)\s+(\d+)\s+(\d+)$")  # "1=": a shared rank
EVERY_CELL = "".join(f"{row} {col}\n" for row in range(3) for col in range(3))
"""A script that always finds a move: each line is a free cell or one taken (asked again)."""


async def read_until(process: asyncio.subprocess.Process, text: str) -> str:
    """The output up to the line holding ``text`` (the rest comes with ``finish``)."""
    assert process.stdout is not None
    lines: list[str] = []
    while not lines or text not in lines[-1]:
        line = (await asyncio.wait_for(process.stdout.readline(), WAIT)).decode()
        assert line, f"the output ended before {text!r}: {''.join(lines)}"
        lines.append(line)
    return "".join(lines)


async def post(server: LiveServer, path: str, body: dict[str, Any]) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.url) as http:
        response = await http.post(path, json=body)
    assert response.is_success, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def get(server: LiveServer, path: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.url) as http:
        response = await http.get(path)
    assert response.is_success, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def creator_home(server: LiveServer, home: Path, name: str) -> dict[str, str]:
    """An identity made on ``server`` and kept in ``home``'s identity file, as the terminal
    keeps its own: the terminal started there plays as that (already entered) creator."""
    made = await post(server, "/api/players", {"name": name})
    identity = Identity(made["player_id"], made["secret"], made["name"])
    IdentityFile(default_path({"XDG_CONFIG_HOME": str(home)})).save(server.url, identity)
    return identity.credentials()


async def tournament(server: LiveServer, creator: dict[str, str], max_players: int) -> str:
    """An open tournament of ``creator`` with a random bot entered."""
    made = await post(server, "/api/tournaments", {"player": creator, "max_players": max_players})
    tid: str = made["tournament_id"]
    await post(server, f"/api/tournaments/{tid}/bots", {"player": creator, "level": "random"})
    return tid


def final_standings(out: str) -> list[tuple[int, str, int, int]]:
    """The rows the terminal printed under "Final standings:"."""
    assert "The tournament is over. Final standings:" in out, out[-2000:]
    lines = out.split("Final standings:\n", 1)[1].splitlines()[1:]  # past the header
    rows = [ROW.match(line) for line in lines]
    assert all(rows), lines
    return [(int(m[1]), m[2], int(m[3]), int(m[4])) for m in rows if m]


def expected(answer: dict[str, Any]) -> list[tuple[int, str, int, int]]:
    return [(s["rank"], s["name"], s["points"], s["played"]) for s in answer["standings"]]


async def play_through(
    server: LiveServer, tmp_path: Path, body: dict[str, Any], bots: int
) -> tuple[dict[str, Any], list[str]]:
    """Ada (the creator, with ``bots`` random bots) and Term play the tournament of ``body``
    from terminals with ``--bot random``; both exit 0 with the server's final standings.
    The final view and each terminal's whole output."""
    ada_home, term_home = tmp_path / "ada", tmp_path / "term"
    ada = await creator_home(server, ada_home, "Ada")
    made = await post(server, "/api/tournaments", {"player": ada, **body})
    tid = made["tournament_id"]
    for _ in range(bots):
        await post(server, f"/api/tournaments/{tid}/bots", {"player": ada, "level": "random"})
    url = f"{server.url}/t/{tid}"
    clis = [
        await start_cli("--connect", url, "--bot", "random", "--seed", "1", home=ada_home),
        await start_cli("--connect", url, "--bot", "random", "--name", "Term", home=term_home),
    ]
    # both follow the tournament before it starts, so each sees every round from the first
    before = [await read_until(cli, "Its creator starts it.") for cli in clis]
    await post(server, f"/api/tournaments/{tid}/start", {"player": ada})
    finished = await asyncio.gather(*(finish(cli, timeout=WAIT * 4) for cli in clis))
    outs = []
    for start, (code, out, err) in zip(before, finished, strict=True):
        assert code == 0, err
        outs.append(start + out)
    answer = await get(server, f"/api/tournaments/{tid}")
    assert answer["status"] == "finished"
    for out in outs:
        assert final_standings(out) == expected(answer)
    return answer, outs


async def test_two_terminal_bots_play_a_round_robin_to_its_end(
    server: LiveServer, tmp_path: Path
) -> None:
    answer, (ada_out, term_out) = await play_through(server, tmp_path, {"max_players": 3}, bots=1)
    games = [g for r in answer["schedule"] for g in r["games"]]
    assert len(games) == 3 and all(g["result"] and g["forfeit"] is None for g in games)
    for out in (ada_out, term_out):
        assert out.count("Your game is ready: ") == 2 and out.count("Result: ") == 2
        assert "You sit this round out (a bye)." in out and "Standings:\n" in out
    assert ada_out.startswith("Already entered as Ada (")  # the creator: an entrant already
    assert "Entered as Term (" in term_out and "Made your player identity" in term_out
    assert "The tournament is under way: 3 rounds." in term_out


async def test_a_person_at_the_keyboard_plays_a_bot_entrant(
    server: LiveServer, tmp_path: Path
) -> None:
    home = tmp_path / "kim"
    kim = await creator_home(server, home, "Kim")
    tid = await tournament(server, kim, max_players=2)
    cli = await start_cli("--connect", f"{server.url}/t/{tid}", home=home)
    await post(server, f"/api/tournaments/{tid}/start", {"player": kim})
    code, out, err = await finish(cli, EVERY_CELL, timeout=WAIT * 4)
    assert code == 0, err
    answer = await get(server, f"/api/tournaments/{tid}")
    assert answer["status"] == "finished"
    [game] = [g for r in answer["schedule"] for g in r["games"]]
    assert game["result"] is not None and game["forfeit"] is None
    mark = "X" if game["first"] == kim["id"] else "O"
    assert f"You are {mark} against Bot (random)" in out
    assert f"{mark} to move (row col): " in out  # typed here, line by line
    assert final_standings(out) == expected(answer)
    rank = next(s["rank"] for s in answer["standings"] if s["id"] == kim["id"])
    assert f">{rank:>4}  Kim" in out  # this terminal's entrant, marked


async def test_entering_what_cannot_be_entered_is_one_clear_line(
    server: LiveServer, tmp_path: Path
) -> None:
    bob = await creator_home(server, tmp_path / "bob", "Bob")
    tid = await tournament(server, bob, max_players=2)  # Bob and the bot: full

    async def refused(*flags: str) -> str:
        code, out, err = await finish(await start_cli(*flags, home=tmp_path / "other"))
        assert code == 2 and "Traceback" not in err, err
        assert err.count("\n") == 1 and err.startswith("tictactoe: error: "), err
        assert "Final standings" not in out
        return err

    url = f"{server.url}/t/{tid}"
    assert "there is no tournament 'nosuchthing' on" in await refused(
        "--connect", f"{server.url}/t/nosuchthing"
    )
    assert "the tournament is full (2 players)" in await refused("--connect", url)
    assert "without --guest" in await refused("--connect", url, "--guest")
    await post(server, f"/api/tournaments/{tid}/start", {"player": bob})
    assert "the tournament is running" in await refused("--connect", url, "--bot", "random")


async def test_a_terminal_bot_takes_a_room_seat_and_sees_the_opponent_resign(
    server: LiveServer, connect: Callable[..., Any], tmp_path: Path
) -> None:
    room_id = await server.create_room()
    x = await connect(server, room_id)
    await x.join(name="Web")
    cli = await start_cli(
        "--connect", f"{server.url}/r/{room_id}", "--bot", "easy", home=tmp_path / "bot"
    )

    async def seated() -> bool:
        return len((await server.snapshot(room_id))["players"]) == 2

    await eventually(seated, "the terminal's bot seated", timeout=WAIT)
    await x.seen((await server.snapshot(room_id))["version"])
    assert (await x.move(1, 1))["type"] == "move_ok"
    await x.seen((await x.until("moved", mark="O"))["version"])
    assert (await x.act("resign"))["type"] == "ack"
    code, out, err = await finish(cli)
    assert code == 0, err
    assert "You are O in room" in out and "O to move" not in out  # the bot never prompts
    assert out.rstrip().endswith("Result: O wins by resignation.")


def test_tournament_links_and_the_standings_table() -> None:
    assert TournamentLink.parse("http://h:8000/t/abc") == TournamentLink("http://h:8000", "abc")
    secure = TournamentLink.parse("https://h/t/abc/")
    assert secure is not None and secure.ws_url("p 1") == "wss://h/ws/t/abc?player=p%201"
    assert TournamentLink.parse("http://h:8000/r/abc") is None
    assert TournamentLink.parse("http://h:8000") is None
    view = {
        "standings": [
            {"rank": 1, "id": "b", "name": "Bot (random)", "points": 6, "played": 2},
            {"rank": 2, "id": "me", "name": "Ada", "points": 3, "played": 2},
        ]
    }
    assert render_standings(view, "me").splitlines() == [
        " rank  name          points  played",
        "    1  Bot (random)       6       2",
        ">   2  Ada                3       2",
    ]
    tie = {
        "standings": [
            {"rank": 1, "id": "a", "name": "Ann", "points": 3, "played": 2, "shared": True},
            {"rank": 1, "id": "b", "name": "Bea", "points": 3, "played": 2, "shared": True},
            {"rank": 3, "id": "c", "name": "Cy", "points": 0, "played": 2, "shared": False},
        ]
    }
    assert render_standings(tie).splitlines() == [
        " rank  name  points  played",
        "    1= Ann        3       2",
        "    1= Bea        3       2",
        "    3  Cy         0       2",
    ]


def test_a_bye_in_a_round_the_socket_skipped_is_still_told() -> None:
    """A slow socket skips to the newest view: round 2 (the bye) began and ended between the
    views of rounds 1 and 3, and the player is still told of it."""
    out = io.StringIO()
    me = {"id": "me", "secret": "s"}
    no_moves: Any = None  # never asked for a move here
    entrant = _Entrant(TournamentLink("http://h", "t"), me, no_moves, out=out, err=io.StringIO())
    schedule = [
        {"number": 1, "bye": "b", "games": []},
        {"number": 2, "bye": "me", "games": []},
        {"number": 3, "bye": "c", "games": []},
    ]
    view = {"kind": "round_robin", "status": "running", "rounds": 3, "schedule": schedule}
    entrant._progress({**view, "round": 3}, {**view, "round": 1})
    assert "You sit this round out (a bye)." in out.getvalue()
    quiet = io.StringIO()
    entrant.out = quiet
    entrant._progress({**view, "round": 3}, {**view, "round": 2})  # told at round 2 already
    assert "a bye" not in quiet.getvalue()


def test_bot_accounts_are_marked_in_the_standings() -> None:
    """A bot account (docs/protocol.md, "Bots") has its [BOT] mark wherever the terminal
    names it, as the browser shows its BOT mark."""
    view = {
        "entrants": [{"id": "r", "name": "Robo", "bot_account": True}, {"id": "a", "name": "Ada"}],
        "standings": [
            {"id": "r", "name": "Robo", "rank": 1, "points": 3, "played": 1},
            {"id": "a", "name": "Ada", "rank": 2, "points": 0, "played": 1},
        ],
    }
    lines = render_standings(view, "a").splitlines()
    assert lines[1].split() == ["1", "Robo", "[BOT]", "3", "1"]
    assert lines[2].split() == [">", "2", "Ada", "0", "1"]
