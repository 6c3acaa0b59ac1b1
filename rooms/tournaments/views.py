"""What clients see of a tournament: its public view (HTTP, the live socket) and the CSV table.

The view names every entrant by id and name, the schedule round by round with each game's
room (a link anyone may follow to watch), and the standings ``core.tournament`` computes from
the recorded results. Nothing in it is secret: seats are taken with an identity's secret, which
never enters the record.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from rooms.tournaments.record import ARENA, KNOCKOUT, TournamentRecord

__all__ = ["bracket_view", "results_csv", "summary", "view"]


def summary(record: TournamentRecord) -> dict[str, Any]:
    """A lobby line."""
    return {
        "tournament_id": record.id,
        "name": record.name,
        "kind": record.kind,
        "double": record.double,
        "draw_rule": record.draw_rule,
        "watch_delay": record.watch_delay,
        "status": record.status.value,
        "duration": record.duration if record.kind == ARENA else None,
        "ends_at": record.ends_at,
        "rules": record.rules,
        "time_control": record.time_control,
        "entrants": len(record.entrants),
        "max_players": record.max_players,
        "starts_at": record.starts_at,
        "round": record.round,
        "rounds": record.rounds,
    }


def view(record: TournamentRecord, *, viewer: str | None = None) -> dict[str, Any]:
    """The whole public state; ``your_game`` for ``viewer`` when they are an entrant with a
    game under way (its room exists): the page moves them there."""
    names = {e.id: e.name for e in record.entrants}
    rounds = []
    for number in range(1, record.rounds + 1):
        games = [
            {
                "index": g.index,
                "first": g.first,
                "second": g.second,
                "room_id": g.room,
                "link": f"/r/{g.room}" if g.room is not None else None,
                "result": g.result,
                "forfeit": g.forfeit,
                "match": g.match,
            }
            for g in record.round_games(number)
        ]
        rounds.append({"number": number, "bye": record.byes.get(number), "games": games})
    standings = [{**s.to_dict(), "name": names[s.name], "id": s.name} for s in record.standings()]
    game = record.game_of(viewer) if viewer is not None else None
    return {
        **summary(record),
        "creator": record.creator,
        "public": record.public,
        "created": record.created,
        "version": record.version,
        "entrants": [
            {
                "id": e.id,
                "name": e.name,
                "bot": e.bot,
                "bot_account": e.bot_account,
                "withdrawn": e.withdrawn,
            }
            for e in record.entrants
        ],
        "schedule": rounds,
        "bracket": bracket_view(record) if record.kind == KNOCKOUT and record.seeds else None,
        "standings": standings,
        "your_game": (
            {"round": game.round, "room_id": game.room, "link": f"/r/{game.room}"}
            if game is not None
            else None
        ),
    }


def bracket_view(record: TournamentRecord) -> list[dict[str, Any]]:
    """A knockout's bracket, round by round, each match with its two places (an entrant id,
    or null while not known and for a first-round bye), their seeds, its games in the order
    played, and its winner once decided."""
    seed = {name: i + 1 for i, name in enumerate(record.seeds)}
    rounds = []
    for number, matches in enumerate(record.bracket(), start=1):
        rounds.append(
            {
                "number": number,
                "matches": [
                    {
                        "index": m.index,
                        "players": [m.high, m.low],
                        "seeds": [seed.get(m.high or ""), seed.get(m.low or "")],
                        "bye": m.bye,
                        "winner": m.winner,
                        "games": [
                            {
                                "index": record.games[i].index,
                                "first": record.games[i].first,
                                "second": record.games[i].second,
                                "room_id": record.games[i].room,
                                "result": record.games[i].result,
                                "forfeit": record.games[i].forfeit,
                            }
                            for i in m.games
                        ],
                    }
                    for m in matches
                ],
            }
        )
    return rounds


def results_csv(record: TournamentRecord) -> str:
    """The standings, then every game: two tables in one CSV, a blank line between."""
    names = {e.id: e.name for e in record.entrants}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    columns = ("rank", "name", "points", "played", "wins", "draws", "losses", "byes")
    writer.writerow([*columns, "sonneborn_berger", "head_to_head"])
    for s in record.standings():
        row = {**s.to_dict(), "name": names[s.name]}
        writer.writerow([row[c] for c in (*columns, "sonneborn_berger", "head_to_head")])
    writer.writerow([])
    writer.writerow(["round", "x", "o", "result", "forfeit", "room_id"])
    for g in record.games:
        result = names.get(g.result, g.result) if g.result is not None else ""
        forfeit = names[g.forfeit] if g.forfeit is not None else ""
        writer.writerow([g.round, names[g.first], names[g.second], result, forfeit, g.room or ""])
    return out.getvalue()
