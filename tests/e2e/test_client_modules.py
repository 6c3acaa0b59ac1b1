"""The client's pure modules, run in the real browser: reconnect backoff, event
application and gap detection, board parsing and replay positions, move shapes per
variant, keyboard movement, room links, result texts (the lifecycle's modules:
test_client_lifecycle.py)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def test_backoff_grows_is_capped_and_jittered(js: Any) -> None:
    delays = js("""
        const lo = [0, 1, 2, 3, 10, 40].map((a) => m.socket.backoffDelay(a, {random: () => 0}));
        const hi = [0, 1, 2, 3, 10, 40].map((a) => m.socket.backoffDelay(a, {random: () => 0.999}));
        return {lo, hi};
    """)
    assert delays["lo"] == [250, 500, 1000, 2000, 7500, 7500]
    caps = [500, 1000, 2000, 4000, 15000, 15000]  # base 500 ms doubling, capped at 15 s
    assert all(cap * 0.99 <= hi <= cap for hi, cap in zip(delays["hi"], caps, strict=True))
    assert all(lo < hi for lo, hi in zip(delays["lo"], delays["hi"], strict=True))


def test_events_apply_in_order_and_a_gap_or_unknown_event_asks_for_sync(js: Any) -> None:
    out = js("""
        const snap = {room_id: "r", rules: {rows: 3, cols: 3, k: 3, gravity: false, misere: false,
                      players: 2, layers: 1}, status: "playing", board: ".../.../...", turn: "X",
                      ply: 0, moves: [], outcome: null, seats: 2, spectators: 0, version: 4,
                      players: [{mark: "X", name: "A", connected: true},
                                {mark: "O", name: "B", connected: true}]};
        const room = m.room_state.fromSnapshot(snap);
        const moved = {type: "moved", version: 5, mark: "X", row: 1, col: 2, layer: 0, ply: 1,
                       turn: "O", status: "playing", outcome: null};
        const a = m.room_state.applyEvent(room, moved);
        const old = m.room_state.applyEvent(a.room, moved);
        const gap = m.room_state.applyEvent(a.room, {...moved, version: 7});
        const unknown = m.room_state.applyEvent(a.room, {type: "clock", version: 6});
        const pres = m.room_state.applyEvent(a.room, {type: "presence", version: 6, mark: "O",
                                                      connected: false});
        const spec = m.room_state.applyEvent(pres.room, {type: "spectators", version: 7, count: 3});
        return {a: a.result, cell: a.room.position[0][1][2], moves: a.room.moves.length,
                turn: a.room.turn, untouched: room.position[0][1][2], old: old.result,
                gap: gap.result, unknown: unknown.result, unknownVersion: unknown.room.version,
                offline: pres.room.players[1].connected, spectators: spec.room.spectators,
                version: spec.room.version};
    """)
    assert out == {
        "a": "applied",
        "cell": "X",
        "moves": 1,
        "turn": "O",
        "untouched": None,
        "old": "old",
        "gap": "gap",
        "unknown": "unknown",
        "unknownVersion": 6,
        "offline": False,
        "spectators": 3,
        "version": 7,
    }


def test_boards_parse_replay_and_preview_gravity_landing(js: Any) -> None:
    out = js("""
        const rules = {rows: 3, cols: 2, k: 2, gravity: true, layers: 1};
        const pos = m.board.parseBoard("../X./XO", rules);
        const cube = {rows: 2, cols: 2, k: 2, gravity: false, layers: 2};
        const p3 = m.board.parseBoard("X./..|.O/..", cube);
        const moves = [{mark: "X", row: 2, col: 0, layer: 0}, {mark: "O", row: 2, col: 1, layer: 0},
                       {mark: "X", row: 1, col: 0, layer: 0}];
        return {
            pos, p3,
            at1: m.board.positionAt(moves, rules, 1),
            land0: m.board.landing(pos, rules, {row: 0, col: 0, layer: 0}),
            land1: m.board.landing(pos, rules, {row: 0, col: 1, layer: 0}),
            full: m.board.landing(m.board.parseBoard("X./O./X.", rules), rules,
                                        {row: 0, col: 0, layer: 0}),
        };
    """)
    assert out["pos"] == [[[None, None], ["X", None], ["X", "O"]]]
    assert out["p3"] == [[["X", None], [None, None]], [[None, "O"], [None, None]]]
    assert out["at1"] == [[[None, None], [None, None], ["X", None]]]
    assert out["land0"] == {"row": 0, "col": 0, "layer": 0}
    assert out["land1"] == {"row": 1, "col": 1, "layer": 0}
    assert out["full"] is None


def test_clicks_are_judged_in_the_page_with_the_rules_it_has(js: Any) -> None:
    out = js("""
        const rules = {rows: 3, cols: 3, k: 3, gravity: false, layers: 1, players: 2};
        const position = m.board.parseBoard("X../.../...", rules);
        const players = [{mark: "X", name: "Ada"}, {mark: "O", name: "Bo"}];
        const room = {rules, position, players, status: "playing", turn: "O", seats: 2};
        const judge = (ctx, row, col) => m.move_check.judgeClick(
            {room, me: "O", live: true, position, pending: null, premove: null, ...ctx},
            {row, col, layer: 0});
        const c4 = {rows: 3, cols: 2, k: 2, gravity: true, layers: 1, players: 2};
        const c4pos = m.board.parseBoard("X./O./X.", c4);
        const c4room = {rules: c4, position: c4pos, players, status: "playing", turn: "O"};
        const sent = {shown: {row: 1, col: 1, layer: 0}};
        return {
            move: judge({}, 1, 1),
            taken: judge({}, 0, 0),
            premove: judge({me: "X"}, 1, 1),
            takenOutOfTurn: judge({me: "X"}, 0, 0),
            cancel: judge({me: "X", premove: {cell: {row: 1, col: 1, layer: 0}}}, 1, 1),
            afterOwnMove: judge({pending: sent}, 2, 2),
            onOwnPrediction: judge({pending: sent}, 1, 1),
            spectator: judge({me: null}, 1, 1),
            replay: judge({live: false}, 1, 1),
            over: judge({room: {...room, status: "finished"}}, 1, 1),
            columnFull: m.move_check.judgeClick(
                {room: c4room, me: "O", live: true, position: c4pos}, {row: 2, col: 0, layer: 0}),
            drops: m.move_check.judgeClick(
                {room: c4room, me: "O", live: true, position: c4pos}, {row: 0, col: 1, layer: 0}),
            predicted: m.move_check.predictedPosition({position, pending: sent, me: "O"}),
            next: [m.move_check.nextMark("X", 2), m.move_check.nextMark("O", 2),
                   m.move_check.nextMark("O", 3), m.move_check.nextMark("A", 3)],
        };
    """)
    cell = {"row": 1, "col": 1, "layer": 0}
    assert out["move"] == {"kind": "move", "cell": cell, "target": cell}
    assert out["taken"] == {
        "kind": "refuse",
        "code": "occupied",
        "title": "a1 is taken",
        "message": "Choose an empty cell.",
        "tone": "hint",
    }
    assert out["premove"] == {"kind": "premove", "cell": cell, "target": cell}
    assert out["takenOutOfTurn"]["message"] == "It is Bo's move."
    assert out["cancel"] == {"kind": "cancel"}
    assert out["afterOwnMove"]["kind"] == "premove"  # own move in flight: the next is queued
    assert out["onOwnPrediction"]["title"] == "b2 is taken"
    for kind in ("spectator", "replay", "over"):
        assert out[kind] == {"kind": "ignore"}, kind
    assert out["columnFull"]["title"] == "Column a is full"
    assert out["drops"]["target"] == {"row": 2, "col": 1, "layer": 0}
    assert out["predicted"] == [[["X", None, None], [None, "O", None], [None, None, None]]]
    assert out["next"] == ["O", "X", "A", "X"]


def test_move_messages_carry_what_each_variant_needs(js: Any) -> None:
    out = js("""
        const mm = m.protocol.moveMessage;
        const cell = {row: 2, col: 3, layer: 1};
        return {
            flat: mm(cell, {gravity: false, layers: 1}, 7, "a"),
            gravity: mm(cell, {gravity: true, layers: 1}, 7, "b"),
            cube: mm(cell, {gravity: false, layers: 4}, 7, "c"),
            cubeGravity: mm(cell, {gravity: true, layers: 4}, 7, "d"),
            join: m.protocol.joinMessage({as: "player", token: "t", lastVersion: 0}),
            spectator: m.protocol.joinMessage({as: "spectator"}),
        };
    """)
    assert out["flat"] == {"type": "move", "row": 2, "col": 3, "version": 7, "move_id": "a"}
    assert out["gravity"] == {"type": "move", "col": 3, "version": 7, "move_id": "b"}
    assert out["cube"] == {
        "type": "move",
        "row": 2,
        "col": 3,
        "layer": 1,
        "version": 7,
        "move_id": "c",
    }
    assert out["cubeGravity"] == {"type": "move", "row": 2, "col": 3, "version": 7, "move_id": "d"}
    assert out["join"] == {
        "type": "join",
        "as": "player",
        "protocol": 1,
        "token": "t",
        "last_version": 0,
    }
    assert out["spectator"] == {"type": "join", "as": "spectator", "protocol": 1}


def test_keyboard_moves_and_room_links(js: Any) -> None:
    out = js("""
        const r = {rows: 3, cols: 4, layers: 2};
        const at = {row: 0, col: 0, layer: 0};
        const keys = ["ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight", "End", "PageUp",
                      "PageDown", "x"];
        const ref = m.lobby.parseRoomRef;
        return {
            moves: keys.map((k) => m.keyboard.nextCell(k, at, r)),
            refs: [ref("q7m2kx9c"), ref(" http://h:1/r/abc_DEF-1/watch "), ref("/r/xyz"),
                   ref("not a code!"), ref("")],
        };
    """)
    assert out["moves"] == [
        {"row": 0, "col": 0, "layer": 0},
        {"row": 0, "col": 0, "layer": 0},
        {"row": 1, "col": 0, "layer": 0},
        {"row": 0, "col": 1, "layer": 0},
        {"row": 0, "col": 3, "layer": 0},
        {"row": 0, "col": 0, "layer": 1},
        {"row": 0, "col": 0, "layer": 0},
        None,
    ]
    assert out["refs"] == [
        {"roomId": "q7m2kx9c", "watch": False},
        {"roomId": "abc_DEF-1", "watch": True},
        {"roomId": "xyz", "watch": False},
        None,
        None,
    ]


def test_result_texts_follow_the_server_outcome(js: Any) -> None:
    out = js("""
        const room = {rules: {k: 3, misere: true}, players: [{mark: "X", name: "Ada"},
                      {mark: "O", name: "Player O"}]};
        const t = m.text.outcomeText;
        return [
            t({reason: "line", winner: "O", loser: "X", line: []}, room, "X"),
            t({reason: "line", winner: "O", loser: "X", line: []}, room, null),
            t({reason: "board_full", winner: null, loser: null, line: []}, room, "O"),
        ];
    """)
    assert out == [
        {
            "title": "You lost",
            "detail": "Player O won · Ada completed 3 in a row (misère)",
            "tone": "loss",
        },
        {"title": "Player O won", "detail": "Ada completed 3 in a row (misère)", "tone": "neutral"},
        {"title": "Draw", "detail": "The board is full", "tone": "draw"},
    ]


def test_the_guard_catches_requests_to_other_hosts(new_page: Any, guard: Any) -> None:
    """Every page in these tests fails its test on a non-loopback request; prove it (with
    the page's Content-Security-Policy bypassed, which would refuse them first)."""
    page = new_page(bypass_csp=True)
    page.goto("/")
    fetched = page.evaluate(
        "() => fetch('https://fonts.example.com/a.woff2').then(() => 'loaded', () => 'blocked')"
    )
    socket = page.evaluate("""() => new Promise((resolve) => {
        const ws = new WebSocket("wss://socket.example.com/ws/x");
        ws.onclose = (e) => resolve(e.code);
    })""")
    assert fetched == "blocked"
    assert socket == 1008
    assert guard.external == ["https://fonts.example.com/a.woff2", "wss://socket.example.com/ws/x"]
    guard.external.clear()  # expected here; any other test fails on such a request


def test_the_content_security_policy_refuses_other_hosts(new_page: Any, guard: Any) -> None:
    """The page itself cannot reach another host: the server's CSP refuses the request
    before it leaves the browser (the guard never sees it)."""
    page = new_page()
    page.goto("/")
    fetched = page.evaluate(
        "() => fetch('https://fonts.example.com/a.woff2').then(() => 'loaded', () => 'blocked')"
    )
    assert fetched == "blocked"
    assert guard.external == []
    refused = [e for e in guard.errors if "Content Security Policy" in e]
    assert refused, guard.errors
    guard.errors.clear()  # the refusal is logged as a console error: expected here


def test_an_unproven_bot_move_is_marked_in_the_move_list(js: Any) -> None:
    out = js("""
        const snap = {room_id: "r", rules: {rows: 3, cols: 3, k: 3, gravity: false, misere: false,
                      players: 2, layers: 1}, status: "playing", board: ".../.../...", turn: "X",
                      ply: 0, moves: [], outcome: null, seats: 2, spectators: 0, version: 4,
                      players: [{mark: "X", name: "Perfect bot", connected: true},
                                {mark: "O", name: "Ada", connected: true}]};
        const moved = {type: "moved", version: 5, mark: "X", row: 1, col: 1, layer: 0, ply: 1,
                       turn: "O", status: "playing", outcome: null, unproven: true};
        const room = m.room_state.applyEvent(m.room_state.fromSnapshot(snap), moved).room;
        const {renderMoves} = await import("/js/render/moves.js");
        const root = document.createElement("div");
        document.body.append(root);
        renderMoves(root, {players: room.players, live: true, moves: room.moves.map((mv, i) => ({
            ply: i + 1, mark: mv.mark, name: "b2", label: "Perfect bot (X): b2",
            current: false, unproven: Boolean(mv.unproven)}))});
        const button = root.querySelector("button.move");
        return {flag: room.moves[0].unproven === true, text: button.textContent,
                unproven: button.classList.contains("unproven"), title: button.title};
    """)
    assert out["flag"] and out["unproven"]
    assert out["text"] == "b2?"
    assert "no proof in time" in out["title"]


def test_a_tournament_crosstable_and_what_a_player_may_do(js: Any) -> None:
    out = js("""
        const t = await import("/js/model/tournament.js");
        const view = {status: "running", round: 2, rounds: 3, creator: "a", max_players: 3,
            entrants: [{id: "a", name: "Ada"}, {id: "b", name: "Bob"}, {id: "c", name: "Cid"}],
            standings: [{id: "a"}, {id: "c"}, {id: "b"}].map((s, i) => ({...s, rank: i + 1})),
            schedule: [
                {number: 1, bye: "c", games: [{first: "a", second: "b", result: "a", forfeit: null,
                                                room_id: "t-1-0"}]},
                {number: 2, bye: "a", games: [{first: "c", second: "b", result: null, forfeit: null,
                                                room_id: "t-2-0"}]},
                {number: 3, bye: "b", games: [{first: "a", second: "c", result: null, forfeit: null,
                                                room_id: null}]}]};
        const cross = t.crosstable(view);
        const text = (x, y) => (cross.cell(x, y) || {text: null}).text;
        return {
            order: cross.order, ab: text("a", "b"), ba: text("b", "a"), cb: text("c", "b"),
            ac: text("a", "c"), aa: text("a", "a"), title: cross.cell("b", "a").title,
            creator: t.myPart(view, "a"), stranger: t.myPart(view, "z"),
            nobody: t.myPart(view, null),
            status: t.statusText(view),
            open: t.myPart({...view, status: "open", entrants: view.entrants.slice(0, 1)}, "z"),
            path: t.tournamentPath("a b"),
        };
    """)
    assert out["order"] == ["a", "c", "b"]
    assert (out["ab"], out["ba"], out["cb"], out["ac"], out["aa"]) == ("W", "L", "…", "", None)
    assert out["title"] == "lost against Ada as O"
    assert out["creator"]["creator"] and out["creator"]["canWithdraw"]
    assert not out["creator"]["canStart"]  # running: started already
    assert not out["stranger"]["canJoin"] and not out["stranger"]["canWithdraw"]
    assert out["nobody"]["entrant"] is None
    assert out["status"] == "Playing round 2 of 3"
    assert out["open"]["canJoin"] and not out["open"]["full"]
    assert out["path"] == "/t/a%20b"


def test_an_arena_crosstable_countdown_and_entry_while_it_runs(js: Any) -> None:
    out = js("""
        const t = await import("/js/model/tournament.js");
        const game = (first, second, result, room) => ({first, second, result, forfeit: null,
                                                      room_id: room});
        const view = {kind: "arena", duration: 300, status: "running", ends_at: 1000,
            round: 3, rounds: 3, creator: "a", max_players: 8, your_game: null,
            entrants: [{id: "a", name: "Ada"}, {id: "b", name: "Bob"}, {id: "c", name: "Cid"}],
            standings: [{id: "a"}, {id: "b"}, {id: "c"}].map((s, i) => ({...s, rank: i + 1})),
            schedule: [
                {number: 1, bye: null, games: [game("a", "b", "a", "t-1-0")]},
                {number: 2, bye: null, games: [game("b", "a", "draw", "t-2-0")]},
                {number: 3, bye: null, games: [game("a", "b", null, "t-3-0")]}]};
        const cross = t.crosstable(view);
        const before = 1000 - 65.2, after = 1001;
        return {
            ab: cross.cell("a", "b"), ba: cross.cell("b", "a").text, ac: cross.cell("a", "c").text,
            kind: t.kindText(view), odd: t.durationText(90), rr: t.kindText({kind: "round_robin"}),
            left: t.countdownText(t.secondsLeft(view, before)), hour: t.countdownText(3600),
            leftAfter: t.secondsLeft(view, after),
            running: t.statusText(view, before), over: t.statusText(view, after),
            stranger: t.myPart(view, "z", before), strangerLate: t.myPart(view, "z", after),
            creator: t.myPart(view, "a", before), creatorLate: t.myPart(view, "a", after),
            waits: t.waitsForPairing(view, "c", before),
            waitsLate: t.waitsForPairing(view, "c", after),
            playing: t.waitsForPairing({...view, your_game: {room_id: "t-3-0"}}, "c", before),
            watcher: t.waitsForPairing(view, "z", before),
            openArena: t.myPart({...view, status: "open", ends_at: null,
                                 entrants: view.entrants.slice(0, 1)}, "a", 0),
            rules: t.rulesText({...view, rules: {}, time_control: {initial: 60, increment: 0}}),
        };
    """)
    assert out["ab"]["text"] == "W D …" and out["ab"]["tone"] == "mixed"
    assert out["ab"]["title"].startswith("won against Bob as X; drew against Bob as O")
    assert (out["ba"], out["ac"]) == ("L D …", "")
    assert (out["kind"], out["odd"], out["rr"]) == ("Arena · 5 min", "1 min 30 s", "Round robin")
    assert (out["left"], out["hour"], out["leftAfter"]) == ("1:06", "1:00:00", 0)
    assert out["running"].startswith("Running") and out["over"].startswith("Time is up")
    assert out["stranger"]["canJoin"] and not out["strangerLate"]["canJoin"]
    assert out["creator"]["canAddBot"] and not out["creatorLate"]["canAddBot"]
    assert not out["creator"]["canStart"]  # running already
    assert out["waits"] and not out["waitsLate"] and not out["playing"] and not out["watcher"]
    assert out["openArena"]["canStart"]  # an arena starts with its creator alone
    assert "round robin" not in out["rules"]


def test_an_arenas_pairings_show_newest_first_up_to_a_cap(js: Any) -> None:
    out = js("""
        const r = await import("/js/render/tournament.js");
        const rounds = Array.from({length: r.ARENA_PAIRINGS_SHOWN + 2}, (_, i) => ({
            number: i + 1, bye: null,
            games: [{first: "a", second: "b", result: "a", forfeit: null,
                     room_id: `t-${i + 1}-0`}]}));
        const view = {kind: "arena", status: "running", round: rounds.length, rounds: rounds.length,
            entrants: [{id: "a", name: "Ada"}, {id: "b", name: "Bob"}], schedule: rounds};
        let asked = 0;
        const capped = r.scheduleList(view, "a", {onShowAll: () => { asked += 1; }});
        capped.querySelector(".show-all").click();
        const all = r.scheduleList(view, "a", {all: true});
        const robin = r.scheduleList({...view, kind: "round_robin"}, "a");
        const numbers = (root) => [...root.querySelectorAll(".t-round")]
            .map((s) => Number(s.dataset.round));
        return {capped: numbers(capped), all: numbers(all), robin: numbers(robin), asked,
                button: capped.querySelector(".show-all").textContent,
                heading: capped.querySelector("h3").textContent,
                noButton: !all.querySelector(".show-all") && !robin.querySelector(".show-all")};
    """)
    assert out["capped"] == [8, 7, 6, 5, 4, 3] and out["asked"] == 1
    assert out["button"] == "Show all 8 pairings (2 older)"
    assert out["all"] == [8, 7, 6, 5, 4, 3, 2, 1] and out["noButton"]
    assert out["robin"] == [1, 2, 3, 4, 5, 6, 7, 8]  # a round robin's rounds in order, all
    assert out["heading"] == "Pairing 8"
