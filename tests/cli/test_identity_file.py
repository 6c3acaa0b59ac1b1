"""``play --connect`` keeps a guest identity per server in a file only its owner reads: made on
first use (``POST /api/players``), reused after, sent with the seat-taking join so the seat
is linked; ``--guest`` plays without one; a file that cannot be used stops the game with a
clear sentence and is left as it was."""

from __future__ import annotations

import asyncio
import json
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cli.terminal.identity_file import (
    Identity,
    IdentityError,
    IdentityFile,
    default_path,
    identity_for,
)
from tests.support.cli_process import start_cli
from tests.support.live_server import LiveServer
from tests.support.waiting import eventually
from tests.support.ws_client import WAIT


def test_the_file_is_in_the_xdg_config_home_else_in_dot_config(tmp_path: Path) -> None:
    assert default_path({"XDG_CONFIG_HOME": str(tmp_path)}) == (
        tmp_path / "tictactoe" / "identity.json"
    )
    home = Path.home() / ".config" / "tictactoe" / "identity.json"
    assert default_path({}) == home
    assert default_path({"XDG_CONFIG_HOME": "relative/dir"}) == home  # XDG: absolute only


def test_identities_are_written_owner_only_and_read_back(tmp_path: Path) -> None:
    file = IdentityFile(tmp_path / "config" / "tictactoe" / "identity.json")
    assert file.load() == {}
    ada = Identity("AdaAdaAdaAda0001", "s" * 43, "Ada")
    file.save("http://127.0.0.1:8000", ada)
    file.save("HTTPS://Play.Example.com", Identity("GraceGraceGrac02", "t" * 43, "Grace"))
    assert stat.S_IMODE(file.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(file.path.parent.stat().st_mode) == 0o700
    assert file.get("http://127.0.0.1:8000") == ada
    assert file.get("https://play.example.com/") is not None  # one origin, however written
    assert file.get("http://127.0.0.1:9000") is None
    assert [p.name for p in file.path.parent.iterdir()] == ["identity.json"]  # no leftovers
    assert "s" * 43 not in repr(ada)


@pytest.mark.parametrize(
    "damage",
    ["directory", "not json", "not ours", "bad bytes"],
)
def test_a_file_that_cannot_be_used_is_a_clear_error_and_stays_as_it_was(
    tmp_path: Path, damage: str
) -> None:
    path = tmp_path / "identity.json"
    if damage == "directory":
        path.mkdir()
    elif damage == "bad bytes":
        path.write_bytes(b"\xff\xfe{")
    else:
        path.write_text("{not json" if damage == "not json" else '{"servers": ["x"]}')
    before = path.read_bytes() if path.is_file() else None
    file = IdentityFile(path)
    for attempt in (file.load, lambda: file.save("http://h:1", Identity("i" * 16, "s", "n"))):
        with pytest.raises(IdentityError) as refused:
            attempt()
        message = str(refused.value)
        assert str(path) in message and "--guest" in message
    assert (path.read_bytes() if path.is_file() else None) == before


async def test_an_identity_is_made_once_per_server_and_reused(
    server: LiveServer, tmp_path: Path
) -> None:
    file = IdentityFile(tmp_path / "identity.json")
    notes: list[str] = []
    made = await asyncio.to_thread(identity_for, server.url, file, name="Term", notify=notes.append)
    assert made.name == "Term" and len(made.secret) == 43
    assert notes and made.player_id in notes[0] and str(file.path) in notes[0]
    again = await asyncio.to_thread(identity_for, server.url, file, notify=notes.append)
    assert again == made and len(notes) == 1  # reused: no second identity
    stored = json.loads(file.path.read_text())
    assert stored["servers"][server.url]["player_id"] == made.player_id


# -- the terminal client, as a program ---------------------------------------------------


async def seated_then_quit(
    server: LiveServer, connect: Callable[..., Any], home: Path, *flags: str
) -> tuple[dict[str, Any], str]:
    """The CLI takes X in a new room and quits once O (a WebSocket client) sat down: the
    seat as the room shows it, and the CLI's output."""
    room_id = await server.create_room()
    cli = await start_cli("--connect", f"{server.url}/r/{room_id}", *flags, home=home)

    async def seated() -> list[dict[str, Any]]:
        players: list[dict[str, Any]] = (await server.snapshot(room_id))["players"]
        return players

    (x_seat,) = await eventually(seated, "the CLI took its seat", timeout=WAIT)
    o = await connect(server, room_id)
    assert (await o.join(name="Web"))["type"] == "welcome"
    out, err = await asyncio.wait_for(cli.communicate(b"quit\n"), WAIT * 2)
    assert cli.returncode == 0, err
    return x_seat, out.decode()


@pytest.mark.process
async def test_the_terminal_links_its_seat_to_its_identity_game_after_game(
    server: LiveServer, connect: Callable[..., Any], tmp_path: Path
) -> None:
    first, out = await seated_then_quit(server, connect, tmp_path, "--name", "Term")
    kept = IdentityFile(tmp_path / "tictactoe" / "identity.json").get(server.url)
    assert kept is not None and first["player_id"] == kept.player_id
    assert first["name"] == "Term" and "Made your player identity" in out
    second, out = await seated_then_quit(server, connect, tmp_path)
    assert second["player_id"] == kept.player_id and second["name"] == "Term"
    assert "Made your player identity" not in out


@pytest.mark.process
async def test_guest_plays_without_an_identity_and_makes_none(
    server: LiveServer, connect: Callable[..., Any], tmp_path: Path
) -> None:
    seat, _ = await seated_then_quit(server, connect, tmp_path, "--guest")
    assert seat["player_id"] is None
    assert not (tmp_path / "tictactoe").exists()
    seat, _ = await seated_then_quit(server, connect, tmp_path, "--no-identity", "--name", "G")
    assert seat["player_id"] is None and seat["name"] == "G"


@pytest.mark.process
async def test_an_unusable_identity_file_stops_the_game_with_a_clear_message(
    server: LiveServer, tmp_path: Path
) -> None:
    path = tmp_path / "tictactoe" / "identity.json"
    path.parent.mkdir()
    path.write_text("{damaged")
    room_id = await server.create_room()
    cli = await start_cli("--connect", f"{server.url}/r/{room_id}", home=tmp_path)
    _, err = await asyncio.wait_for(cli.communicate(), WAIT * 2)
    assert cli.returncode == 2
    assert f"cannot use your identity file {path}" in err.decode()
    assert "--guest" in err.decode() and "Traceback" not in err.decode()
    assert path.read_text() == "{damaged"
    assert (await server.snapshot(room_id))["players"] == []


@pytest.mark.process
async def test_an_identity_the_server_does_not_know_is_explained(
    server: LiveServer, tmp_path: Path
) -> None:
    file = IdentityFile(tmp_path / "tictactoe" / "identity.json")
    file.save(server.url, Identity("ForgottenId00001", "s" * 43, "Old"))
    room_id = await server.create_room()
    cli = await start_cli("--connect", f"{server.url}/r/{room_id}", home=tmp_path)
    _, err = await asyncio.wait_for(cli.communicate(), WAIT * 2)
    assert cli.returncode == 2
    assert "does not know the identity" in err.decode() and "--guest" in err.decode()
    assert (await server.snapshot(room_id))["players"] == []
