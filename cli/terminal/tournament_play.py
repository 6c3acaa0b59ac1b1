"""``tictactoe play --connect URL/t/ID [--bot LEVEL]``: enter a tournament and play its games.

The terminal enters the tournament with the identity kept for that server (identity_file; a
tournament's entrants are identities, so ``--guest`` is refused), then follows its live view
(client.tournament). Whenever ``your_game`` names a room not played yet, it takes its seat there
and plays the game to its end with the terminal game (net_play): typed at the keyboard, or by
the ``--bot``. It prints the standings after each game and the final ones at the end (exit
0). It follows ``your_game`` and the status alone, so it plays any kind of tournament.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

from client import (
    Disconnected,
    Refused,
    RoomClient,
    RoomLink,
    TournamentFeed,
    TournamentLink,
    enter,
)
from core import Rules

from .bot_seat import bot_from_args
from .identity_file import IdentityError, IdentityFile, default_path, identity_for, unknown_identity
from .names import shown_name
from .net_play import play_room
from .seats import MoveSource, TerminalSeat

__all__ = ["play_tournament", "render_standings"]

_ROUND_ROBIN = "round_robin"
_ARENA = "arena"
_KNOCKOUT = "knockout"


def round_name(number: int, rounds: int, kind: str) -> str:
    """A round's name, "Round 2 of 3"; a knockout's last ones by name, "Final (round 3 of 3)"."""
    plain = f"Round {number} of {rounds}"
    if kind != _KNOCKOUT or rounds - number > 2:
        return plain
    name = ("Final", "Semi-finals", "Quarter-finals")[rounds - number]
    return f"{name} (round {number} of {rounds})"


def render_standings(view: dict[str, Any], me: str | None = None) -> str:
    """The standings as a table: rank (``1=`` for a rank shared by players level on every
    tie-break, as the browser shows it), name, points, games played; ``>`` marks ``me``."""
    bots = {e["id"] for e in view.get("entrants", []) if e.get("bot_account")}
    rows = [
        {**s, "name": shown_name({**s, "bot_account": s["id"] in bots})} for s in view["standings"]
    ]
    width = max([len("name"), *(len(s["name"]) for s in rows)])
    lines = [f" rank  {'name':<{width}}  points  played"]
    for s in rows:
        mark = ">" if s["id"] == me else " "
        shared = "=" if s.get("shared") else " "
        line = (
            f"{mark}{s['rank']:>4}{shared} {s['name']:<{width}}  {s['points']:>6}  {s['played']:>6}"
        )
        lines.append(line)
    return "\n".join(lines)


def _clock(tc: dict[str, Any] | None) -> str:
    if not tc:
        return "untimed"
    return f"{tc['initial']:g}+{tc['increment']:g} s, first move within {tc['first_move']:g} s"


def _at(seconds: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(seconds))


class _Entrant:
    """One entrant following the tournament: what it printed, and the games it played."""

    def __init__(
        self,
        link: TournamentLink,
        player: dict[str, str],
        local: MoveSource,
        *,
        out: TextIO,
        err: TextIO,
    ) -> None:
        self.link, self.player, self.local = link, player, local
        self.out, self.err = out, err
        self.me = player["id"]
        self.played: set[str] = set()
        self.last: dict[str, Any] | None = None  # the view shown last
        self.after_game: str | None = None  # the room whose result the standings wait for
        self.waiting_said = False
        self.out_said = False

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def run(self, first: dict[str, Any]) -> int:
        self._news(first)
        feed = TournamentFeed(self.link, self.me, notify=self.say)
        try:
            view = first
            while view["status"] != "finished":
                game = view.get("your_game")
                if game is not None and game["room_id"] not in self.played:
                    self.played.add(game["room_id"])
                    feed.close()  # nobody reads it during the game: opened again after
                    code = self._play(view, game["room_id"])
                    if code is not None:
                        return code
                view = feed.next_view()
                self._news(view)
        except (Refused, Disconnected) as exc:
            self.out.flush()
            print(f"tictactoe: error: {exc}", file=self.err)
            return 2
        finally:
            feed.close()
        self.say("The tournament is over. Final standings:")
        self.say(render_standings(view, self.me))
        return 0

    def _news(self, view: dict[str, Any]) -> None:
        """Say what changed since the view shown last."""
        last, self.last = self.last, view
        if last is None:
            rules = Rules.from_dict(view["rules"])
            kind = view.get("kind", _ROUND_ROBIN).replace("_", " ")
            clock = _clock(view.get("time_control"))
            self.say(f"Tournament {view['name']}: {kind}, {rules.describe()}, {clock}.")
            self.say(f"Watch it at {self.link.page_url}")
        if view["status"] == "open" and (last is None or last["entrants"] != view["entrants"]):
            self._entrants(view, first=last is None)
        if view["status"] == "running":
            self._progress(view, last)
        if self.after_game is not None and (view["status"] == "finished" or self._scored(view)):
            self.after_game = None
            if view["status"] != "finished":  # the final standings follow anyway
                self.say("Standings:")
                self.say(render_standings(view, self.me))
        game = view.get("your_game")
        idle = view["status"] == "running" and (game is None or game["room_id"] in self.played)
        if idle and not self.waiting_said and self.after_game is None:
            self.waiting_said = True
            self.say("Waiting for your next game...")

    def _entrants(self, view: dict[str, Any], *, first: bool) -> None:
        names = [shown_name(e) + (" (you)" if e["id"] == self.me else "") for e in view["entrants"]]
        self.say(f"Players ({len(names)} of {view['max_players']}): {', '.join(names)}.")
        if first:
            when = view.get("starts_at")
            self.say(f"It starts at {_at(when)}." if when else "Its creator starts it.")

    def _progress(self, view: dict[str, Any], last: dict[str, Any] | None) -> None:
        """The start, and each round of a round robin, a Swiss or a knockout (an arena has no
        rounds to announce): a bye, and in a knockout, the match lost that puts them out."""
        kind = view.get("kind", _ROUND_ROBIN)
        if last is None or last["status"] != "running":
            if kind != _ARENA:
                self.say(f"The tournament is under way: {view['rounds']} rounds.")
            else:
                ends = view.get("ends_at")
                self.say("The tournament is under way" + (f" until {_at(ends)}." if ends else "."))
        if kind == _ARENA or (last is not None and last["round"] == view["round"]):
            return
        self.say(f"{round_name(view['round'], view['rounds'], kind)}.")
        # A slow socket skips to the newest view: a round short enough to begin and end
        # between two views this one saw is never current here, so its bye is told as well.
        since = last["round"] if last is not None and last["status"] == "running" else 0
        for rnd in view["schedule"]:
            if since < rnd["number"] <= view["round"] and rnd["bye"] == self.me:
                self.say("You sit this round out (a bye).")
        if kind == _KNOCKOUT and view.get("bracket"):
            self._knockout(view)

    def _knockout(self, view: dict[str, Any]) -> None:
        """Where this entrant stands in the bracket as a round opens."""
        for rnd in view["bracket"]:
            for match in rnd["matches"]:
                if self.me not in match["players"]:
                    continue
                if match["bye"] and rnd["number"] == view["round"]:
                    self.say("You have a bye: through to the next round without a game.")
                if match["winner"] is not None and match["winner"] != self.me:
                    if not self.out_said:
                        self.out_said = True
                        left = view["rounds"] - rnd["number"]
                        where = (
                            ("the final", "the semi-finals", "the quarter-finals")[left]
                            if left <= 2
                            else f"round {rnd['number']}"
                        )
                        self.say(f"You are out, beaten in {where}; following it to its end.")
                    return

    def _scored(self, view: dict[str, Any]) -> bool:
        return any(
            g["room_id"] == self.after_game and g["result"] is not None
            for r in view["schedule"]
            for g in r["games"]
        )

    def _play(self, view: dict[str, Any], room_id: str) -> int | None:
        """Play the game in ``room_id``; None to go on following, else the exit code."""
        link = RoomLink(self.link.http_base, room_id)
        self.say(f"Your game is ready: {link.play_url}")
        client = RoomClient(link, role="player", notify=self.say, player=self.player)
        try:
            client.connect()
            opponents = [shown_name(p) for p in client.players if p["mark"] != client.mark]
            against = f" against {', '.join(opponents)}" if opponents else ""
            self.say(f"You are {client.mark}{against} ({client.rules.describe()}).")
            code = play_room(client, self.local, out=self.out, err=self.err)
            finished = client.status == "finished"
        except (Refused, Disconnected) as exc:  # this game is lost; the tournament goes on
            self.say(f"Could not play the game in {room_id}: {exc}")
            return None
        finally:
            client.close()
        self.waiting_said = False
        if code != 0:
            return code  # the input ended during the game
        if not finished:
            self.say(
                "You left the game; it goes on, on its clock. The same command comes back to it."
            )
            return 0
        self.after_game = room_id
        return None


def play_tournament(
    args: argparse.Namespace,
    link: TournamentLink,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
    input: TextIO | None = None,
) -> int:
    # the streams of now, not of the import (a test may have replaced them since)
    out, err, input = out or sys.stdout, err or sys.stderr, input or sys.stdin

    def fail(message: str) -> int:
        out.flush()
        print(f"tictactoe: error: {message}", file=err)
        return 2

    if getattr(args, "guest", False):
        return fail("a tournament's players are identities: play it without --guest")
    if getattr(args, "watch", False):
        return fail(f"--watch: follow a tournament on its page, {link.page_url}")
    file = IdentityFile(default_path())
    try:
        identity = identity_for(
            link.http_base, file, name=args.name, notify=lambda line: print(line, file=out)
        )
        view, entered = enter(link, identity.credentials())
    except Refused as exc:
        if exc.code == "bad_identity":
            return fail(str(unknown_identity(link.http_base, file, guest=False)))
        if exc.code == "not_found":
            return fail(
                f"there is no tournament {link.tournament_id!r} on {link.http_base} (the link "
                "is wrong, or it finished long ago)"
            )
        return fail(f"cannot enter the tournament {link.tournament_id!r}: {exc}")
    except (Disconnected, IdentityError) as exc:
        return fail(str(exc))
    local: MoveSource
    if args.bot is not None:
        local = bot_from_args(args, Rules.from_dict(view["rules"]))
    else:
        local = TerminalSeat(input, out)
    said = "Entered" if entered else "Already entered"
    by = f"; the {args.bot} bot plays your games" if args.bot is not None else ""
    print(f"{said} as {identity.name} ({identity.player_id}){by}.", file=out)
    return _Entrant(link, identity.credentials(), local, out=out, err=err).run(view)
