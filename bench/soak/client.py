"""One soak participant: the client library's resuming room client, timed and tallied.

A ``Client`` is a seated player or a spectator of one room, an ``AsyncRoomClient``
(client.aio: it rejoins at once after a drop, with its seat token and ``last_version``,
retries a move with the **same** ``move_id`` and version until ``move_ok`` or a refusal for
good, and sends a ``join_key`` with every join until it holds a token). What the soak adds:
each join goes to a random live server of ``Targets`` (another one after a failure), the
drops and the ways back are counted in the ``Tally`` and timed, and every ``move_ok`` is
kept as an ``Ack`` for the checks. Clients never raise on a fault; they raise ``Orphaned``
(client.aio.SeatLost) when a seat-taking ``join`` ends without its seat all the same (a
server bug) and ``Refused`` on an error no retry can cure.
"""

from __future__ import annotations

import time

from websockets.asyncio.client import ClientConnection

from bench.load.haproxy import SERVED_BY
from client import Refused, Seat
from client.aio import AsyncRoomClient, Line
from client.aio import SeatLost as Orphaned
from client.wire import Message, retry_pause

from .check import Ack, Cell
from .tally import Tally, Targets

__all__ = ["Client", "Orphaned", "Refused", "retry_pause"]


class Client(AsyncRoomClient):
    def __init__(
        self,
        room_id: str,
        role: str,
        name: str,
        targets: Targets,
        tally: Tally,
        *,
        acks: list[Ack] | None = None,
    ) -> None:
        super().__init__(self._pick, Seat(role, name))
        self.room_id, self.role, self.name = room_id, role, name
        self.targets, self.tally = targets, tally
        self._path = f"/ws/{room_id}" + ("/watch" if role == "spectator" else "")
        self._bases: dict[str, str] = {}  # a socket URL -> the server's (Targets') URL
        self.acks: list[Ack] = [] if acks is None else acks
        """Every ``move_ok`` received, in order (a list the game's players may share)."""
        self.refused: dict[str, Cell] = {}
        self.dropped_at: list[float] = []
        """``time.monotonic()`` of each drop noticed."""
        self.rejoined_at: list[float] = []
        """``time.monotonic()`` of each ``welcome`` after a drop."""
        self.seated: list[tuple[str, float]] = []
        """The server of each ``welcome`` and its ``time.monotonic()``, in order."""
        self.handshakes: list[float] = []
        """``time.monotonic()`` of each completed WebSocket handshake, in order."""
        self.welcomed_on: list[float] = []
        """For each ``welcome``, when the handshake of its connection completed."""

    def _pick(self, avoid: str | None) -> str | None:
        base = self.targets.pick(self._bases.get(avoid) if avoid is not None else None)
        if base is None:
            return None
        url = f"ws{base[4:]}{self._path}"
        self._bases[url] = base
        return url

    # -- the library's hooks --------------------------------------------------------------

    def server_of(self, ws: ClientConnection, url: str) -> str:
        """The server named by a balancer's ``X-Served-By`` header, else the one picked."""
        served_by = ws.response.headers.get(SERVED_BY) if ws.response is not None else None
        return served_by or self._bases.get(url, url)

    def observe(self, message: Message) -> None:
        super().observe(message)
        if message.get("type") == "error" and message.get("code") == "unavailable":
            self.tally.saw_unavailable()

    def stamp(self) -> str:
        """The seconds since the soak began, as its progress lines and ``timeline`` say."""
        return f"{time.monotonic() - self.tally.started:.1f}s "

    def connected(self, line: Line) -> None:
        self.handshakes.append(line.opened)

    def welcomed(self, line: Line, welcome: Message) -> None:
        self.seated.append((line.server, time.monotonic()))
        self.welcomed_on.append(line.opened)

    def dropped(self) -> object:
        self.dropped_at.append(time.monotonic())
        return self.tally.dropped()

    def rejoined(self, drop: object, seconds: float) -> None:
        self.rejoined_at.append(time.monotonic())
        self.tally.reconnected(str(drop), seconds)

    # -- acting ---------------------------------------------------------------------------

    async def play(self, row: int, col: int, move_id: str) -> Message:
        """Play a move until ``move_ok``, kept as an ``Ack`` (a refusal for good: the cell
        in ``refused``, and Refused)."""
        assert self.mark is not None
        cell: Cell = (self.mark, row, col)
        try:
            reply = await self.move(row, col, move_id=move_id)
        except Refused:
            self.refused[move_id] = cell
            raise
        self.acks.append(Ack(move_id, cell, int(reply["version"]), bool(reply.get("duplicate"))))
        return reply
