"""What the room socket asks of the bot API: who a ``join`` proves, and whether a bot's seat
may send a command now (server.ws.session calls these; the logic lives here).

A ``join`` with a ``bot_token`` proves the bot by its token (rate-limited, read from the
store); one with a ``player`` proves a person by their secret, and a bot account's secret
proves nothing here: a bot's seat is played with its token only. Each command of a bot's
seat (but ``ping`` and ``sync``) checks the token again, so a revoked token stops the seat
at once on every worker; a move is also held to the bot's moves a second.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rooms import ErrorCode, RoomError
from rooms.players import Player, PlayerDirectory, verified
from rooms.protocol import ClientMessage, JoinMessage, MoveMessage, PingMessage, SyncMessage

if TYPE_CHECKING:  # the gate imports server.ws's limits, whose session imports this module
    from .gate import BotGate

__all__ = ["BotSeat", "bot_may", "join_identity"]


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A room connection joined with a bot's token: the bot and the token it presented."""

    bot_id: str
    token: str

    def __repr__(self) -> str:  # never print a token
        return f"BotSeat(bot_id={self.bot_id!r}, token=<token>)"


async def join_identity(
    gate: BotGate | None, players: PlayerDirectory, message: JoinMessage
) -> tuple[Player | None, BotSeat | None]:
    """The identity ``message`` proves (None: a guest), and the bot seat when it is a bot's;
    ``bad_identity``, ``rate_limited`` or ``bot_token_required`` when it proves none."""
    if message.bot_token is not None:
        if gate is None:
            raise RoomError(ErrorCode.UNAVAILABLE, "this server takes no bot tokens")
        bot = await gate.authenticate(message.bot_token)
        return bot, BotSeat(bot.player_id, message.bot_token)
    player = await verified(players, message.player) if message.player else None
    if player is not None and player.bot:
        raise RoomError(
            ErrorCode.BOT_TOKEN_REQUIRED, "a bot account plays with its bot_token, not its secret"
        )
    return player, None


async def bot_may(gate: BotGate | None, seat: BotSeat, message: ClientMessage) -> bool:
    """Whether the bot's seat may send ``message`` now: True, or False when its token is not
    valid any more (the caller answers ``bad_identity`` and closes with 4401); ``bot_limit``
    for a move past its moves a second."""
    if isinstance(message, PingMessage | SyncMessage):
        return True
    assert gate is not None
    try:
        await gate.check(seat.bot_id, seat.token, move=isinstance(message, MoveMessage))
    except RoomError as exc:
        if exc.code is not ErrorCode.BAD_IDENTITY:
            raise
        return False
    return True
