"""The client's lifecycle modules, run in the real browser: lifecycle events applied to the
room, which actions are possible, clocks counting down from the server's deadline, analysis
labels, and what the page remembers after events."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e


SNAP = """
    const rules = {rows: 3, cols: 3, k: 3, gravity: false, misere: false, players: 2, layers: 1};
    const player = (mark, name, extra = {}) => ({mark, name, connected: true, bot: null,
        away_since: null, left: false, claimable_at: null, wins: 0, draws: 0, ...extra});
    const snap = (extra = {}) => ({room_id: "r", rules, status: "playing", board: "X../.O./...",
        turn: "X", ply: 2, moves: [{mark: "X", row: 0, col: 0, layer: 0},
                                   {mark: "O", row: 1, col: 1, layer: 0}],
        outcome: null, seats: 2, spectators: 0, version: 10, now: 1000, due: null,
        game_number: 1, clock: null, offers: {draw: null, takeback: null, rematch: []},
        settings: {takeback_backoff: 5}, games: [],
        players: [player("X", "Ada"), player("O", "Bob")], ...extra});
"""


def test_lifecycle_events_apply_to_the_room(js: Any) -> None:
    out = js(
        SNAP
        + """
        const S = m.room_state;
        let room = S.fromSnapshot(snap());
        const offers = (o) => ({draw: null, takeback: null, rematch: [], ...o});
        const steps = [
            {type: "draw_offered", version: 11, by: "X", offers: offers({draw: "X"}),
             clock: null, due: null},
            {type: "draw_declined", version: 12, by: "O", offers: offers({}),
             clock: null, due: null},
            {type: "undone", version: 13, by: "O", moves: [{mark: "O", row: 1, col: 1, layer: 0}],
             board: "X../.../...", ply: 1, turn: "O", status: "playing", offers: offers({}),
             clock: null, due: null},
            {type: "game_over", version: 14, status: "finished", turn: null, by: "O",
             outcome: {reason: "resignation", winner: "X", loser: "O", line: []},
             players: [player("O", "Bob"), player("X", "Ada", {wins: 1})],
             offers: offers({}), clock: null, due: null},
            {type: "rematch_offered", version: 15, by: "X", offers: offers({rematch: ["X"]}),
             clock: null, due: null},
            {type: "new_game", version: 16, game_number: 2, marks: {X: "O", O: "X"},
             players: [player("X", "Bob"), player("O", "Ada", {wins: 1})], board: ".../.../...",
             ply: 0, turn: "X", status: "playing", started_at: 1020, offers: offers({}),
             clock: null, due: null},
        ];
        const seen = [];
        for (const ev of steps) {
            const r = S.applyEvent(room, ev);
            room = r.room;
            seen.push([r.result, room.version, room.status, room.moves.length, room.offers.draw,
                       room.offers.rematch.length, room.players.map((p) => p.name).join(",")]);
        }
        return {seen, games: room.games.length, game: room.game_number,
                empty: room.position.flat(2).every((c) => c === null),
                outcome: room.outcome, last: room.games[0].outcome.reason};
    """
    )
    assert out["seen"] == [
        ["applied", 11, "playing", 2, "X", 0, "Ada,Bob"],
        ["applied", 12, "playing", 2, None, 0, "Ada,Bob"],
        ["applied", 13, "playing", 1, None, 0, "Ada,Bob"],
        ["applied", 14, "finished", 1, None, 0, "Ada,Bob"],  # players sorted by seat
        ["applied", 15, "finished", 1, None, 1, "Ada,Bob"],
        ["applied", 16, "playing", 0, None, 0, "Bob,Ada"],
    ]
    assert out["games"] == 1 and out["game"] == 2 and out["empty"] is True
    assert out["outcome"] is None and out["last"] == "resignation"


def test_only_possible_actions_are_offered(js: Any) -> None:
    out = js(
        SNAP
        + """
        const L = m.lifecycle;
        const S = m.room_state;
        const on = (room, me, now = 1000, memo = {}) =>
            Object.entries(L.possible(room, me, now, memo))
                .filter(([, v]) => v).map(([k]) => k).sort();
        const early = S.fromSnapshot(snap({moves: [{mark: "X", row: 0, col: 0, layer: 0}],
                                           ply: 1, turn: "O"}));
        const mid = S.fromSnapshot(snap());
        const offered = S.fromSnapshot(snap({offers: {draw: "O", takeback: null, rematch: []}}));
        const gone = S.fromSnapshot(snap({players: [player("X", "Ada"),
            player("O", "Bob", {connected: false, away_since: 990, left: true,
                                claimable_at: 995})]}));
        const soon = S.fromSnapshot(snap({players: [player("X", "Ada"),
            player("O", "Bob", {connected: false, away_since: 990, claimable_at: 1020})]}));
        const bot = S.fromSnapshot(snap({players: [player("X", "Ada"),
            player("O", "Bot (perfect)", {bot: "perfect"})]}));
        const over = S.fromSnapshot(snap({status: "finished", turn: null,
            outcome: {reason: "board_full", winner: null, loser: null, line: []},
            offers: {draw: null, takeback: null, rematch: ["O"]}}));
        return {
            spectator: on(mid, null), early: on(early, "X"), mid: on(mid, "X"),
            offeredX: on(offered, "X"), offeredO: on(offered, "O"),
            afterOwnOffer: on(mid, "X", 1000, {drawOfferedAt: 1}),
            backoff: on(mid, "X", 1000, {takebackRetryAt: 1005}),
            gone: on(gone, "X"), soon: on(soon, "X"), bot: on(bot, "X"),
            overX: on(over, "X"), overO: on(over, "O"),
            absence: L.absence(soon, "X", 1000),
            rated: on(S.fromSnapshot(snap({rated: true, pool: "classic.untimed"})), "X"),
            tournament: on(S.fromSnapshot(snap({tournament: "t1"})), "X"),
        };
    """
    )
    assert out["spectator"] == []
    assert out["early"] == ["abort", "takeback"]  # O has not moved yet: abort, not resign
    assert out["mid"] == ["offerDraw", "resign", "takeback"]
    assert out["offeredX"] == ["answerDraw", "resign"]  # one question at a time
    assert out["offeredO"] == ["resign"]
    assert out["afterOwnOffer"] == ["resign", "takeback"]  # one offer per own move
    assert out["backoff"] == ["offerDraw", "resign"]
    assert out["gone"] == ["claimDraw", "claimWin", "offerDraw", "resign", "takeback"]
    assert out["soon"] == ["offerDraw", "resign", "takeback"]
    assert out["bot"] == ["resign", "takeback"]  # no draw offers to a bot
    assert out["overX"] == ["rematch"] and out["overO"] == []
    assert out["absence"] == {"mark": "O", "name": "Bob", "at": 1020, "left": False, "now": False}
    assert out["rated"] == ["offerDraw", "resign"]  # a game that counts takes nothing back
    assert out["tournament"] == ["offerDraw", "resign"]


def test_clocks_count_down_from_the_server_deadline(js: Any) -> None:
    out = js(
        SNAP
        + """
        const C = m.clock;
        const clock = {initial: 60, increment: 2, first_move: 30, remaining: {X: 41.5, O: 58},
                       running: "X", deadline: 1041.5};
        const room = m.room_state.fromSnapshot(snap({clock}));
        const first = m.room_state.fromSnapshot(snap({clock: {...clock, running: null,
            remaining: {X: 60, O: 60}, deadline: 1030}}));
        const done = m.room_state.fromSnapshot(snap({clock, status: "finished", turn: null}));
        const view = (r, now) => C.clockView(r, now).clocks
            .map((c) => [c.mark, c.text, c.running, c.low]);
        return {
            at0: view(room, 1000), at35: view(room, 1035), late: view(room, 1050),
            first: C.clockView(first, 1012).firstMove, done: view(done, 1050),
            none: C.clockView(m.room_state.fromSnapshot(snap()), 1000),
            fmt: [3600 + 62, 600, 59.99, 9.96, 0, -3].map(C.formatClock),
            tc: [C.timeControlText({initial: 180, increment: 2}),
                 C.timeControlText({initial: 45, increment: 0})],
            offset: C.serverTime(2_000_000, 1000 - 1),
        };
    """
    )
    assert out["at0"] == [["X", "0:41", True, False], ["O", "0:58", False, False]]
    assert out["at35"] == [["X", "0:06.5", True, True], ["O", "0:58", False, False]]
    assert out["late"][0] == ["X", "0:00.0", True, True]  # shown at zero; the server decides
    assert out["first"] == {"mark": "X", "seconds": 18}
    assert out["done"][0] == ["X", "0:41", False, False]  # not running once finished
    assert out["none"] is None
    assert out["fmt"] == ["1:01:02", "10:00", "0:59", "0:09.9", "0:00.0", "0:00.0"]
    assert out["tc"] == ["3 + 2", "45 s + 0"]
    assert out["offset"] == 1001


def test_analysis_labels_and_who_may_see_them(js: Any) -> None:
    out = js("""
        const E = m.evaluation;
        const result = {over: false, turn: "X", proven: false, cells: [
            {row: 0, col: 1, layer: 0, value: "win", moves_to_end: 3, score: 999997},
            {row: 0, col: 2, layer: 0, value: "draw", moves_to_end: null, score: 0},
            {row: 1, col: 0, layer: 0, value: "loss", moves_to_end: 1, score: -999999},
            {row: 2, col: 2, layer: 0, value: "unknown", moves_to_end: null, score: -12},
            {row: 2, col: 1, layer: 0, value: "unknown", moves_to_end: null, score: 25000}]};
        const map = E.evalMap(result);
        return {
            labels: [...map.entries()].map(([k, v]) => [k, v.text, v.tone]),
            spoken: map.get("0:0:1").spoken,
            allowed: [["spectator", "playing"], ["player", "playing"], ["player", "finished"],
                      [null, "playing"]].map(([r, st]) => E.analysisAllowed(r, st)),
            summary: E.summary(result, (mk) => `Ada (${mk})`),
            over: E.summary({over: true, cells: []}, () => ""),
        };
    """)
    assert out["labels"] == [
        ["0:0:1", "W3", "win"],
        ["0:0:2", "D", "draw"],
        ["0:1:0", "L1", "loss"],
        ["0:2:2", "−12", "unknown"],
        ["0:2:1", "+25k", "unknown"],
    ]
    assert out["spoken"] == "wins, 3 moves to the end"
    assert out["allowed"] == [True, False, True, False]
    assert out["summary"] == "Ada (X) to move wins with best play."
    assert out["over"] == "The game is over on this board: no move is left to weigh."


def test_a_proven_value_without_its_distance_and_an_unproven_one(js: Any) -> None:
    out = js("""
        const E = m.evaluation;
        const cells = [
            {value: "win", moves_to_end: null, score: 500000, proven: true},
            {value: "loss", moves_to_end: null, score: -500000, proven: true},
            {value: "unknown", moves_to_end: null, score: 7, proven: false}];
        return cells.map((c) => { const e = E.cellEval(c); return [e.text, e.tone, e.spoken]; });
    """)
    assert out == [
        ["W", "win", "wins, distance not measured"],
        ["L", "loss", "loses, distance not measured"],
        ["+7", "unknown", "unproven, estimate +7"],
    ]


def test_page_memory_after_events(js: Any) -> None:
    out = js(
        SNAP
        + """
        const S = m.room_state;
        const room = S.fromSnapshot(snap());
        const s = {role: "player", mark: "X", room, memo: {}, offset: 0};
        const offered = S.fromSnapshot(snap({offers: {draw: null, takeback: "X", rematch: []}}));
        return {
            draw: m.page_memo.afterEvent(s, {type: "draw_offered", by: "X"}, room, 1000),
            declined1: m.page_memo.afterEvent({...s, room: offered},
                {type: "takeback_declined", by: "O"}, room, 1000),
            declined2: m.page_memo.afterEvent({...s, room: offered, memo: {takebackDeclines: 1}},
                {type: "takeback_declined", by: "O"}, room, 1000),
            rematch: m.page_memo.afterEvent({...s, memo: {drawOfferedAt: 1}},
                {type: "new_game", marks: {X: "O", O: "X"}}, room, 1000),
            spectator: m.page_memo.afterEvent({...s, role: "spectator", mark: null},
                {type: "new_game", marks: {X: "O", O: "X"}}, room, 1000),
        };
    """
    )
    assert out["draw"] == {"memo": {"drawOfferedAt": 1}, "actionError": None}
    assert out["declined1"]["memo"] == {"takebackDeclines": 1, "takebackRetryAt": 1005}
    assert out["declined2"]["memo"] == {"takebackDeclines": 2, "takebackRetryAt": 1010}
    assert out["rematch"] == {
        "memo": {},
        "replay": None,
        "confirming": None,
        "mark": "O",
        "actionError": None,
    }
    assert "mark" not in out["spectator"]
