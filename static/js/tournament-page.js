// A tournament's page (/t/{id}): its rules and status, the entrants, the live standings with
// the crosstable, the schedule with each game's room, and the podium and the results table
// once it is finished. It follows /ws/t/{id}?player=ID, which sends the whole view on every
// change; when this browser's entrant gets a game (`your_game`), the page moves to that room
// by itself (once a room: a player who comes back during that game stays), and remembers the
// tournament for the game page's way back. Join and withdraw use this browser's identity; the
// creator also starts it and adds bots.

import { getTournament, resultsCsvPath, tournamentAction } from "./api.js";
import { announce } from "./announce.js";
import { copyText } from "./clipboard.js";
import { fill, h, memo } from "./dom.js";
import { ensureIdentity, renameIdentity } from "./identity.js";
import { BOT_LEVELS } from "./lobby-options.js";
import { cleanName, guestName } from "./names.js";
import { Connection } from "./net.js";
import { renderConn } from "./render/conn.js";
import { entrantList, podiumView, scheduleList, standingsTable } from "./render/tournament.js";
import { loadIdentity, loadName, saveName } from "./storage.js";
import {
  markMoved, movedTo, myPart, rememberTournamentRoom, rulesText, statusText,
} from "./tournament.js";

export function tournamentSocketUrl(id, playerId, loc = window.location) {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  const query = playerId ? `?player=${encodeURIComponent(playerId)}` : "";
  return `${scheme}//${loc.host}/ws/t/${encodeURIComponent(id)}${query}`;
}

export function startTournament(app, id) {
  let t = null; // the newest view the server sent
  let busy = null; // the action waiting for its answer
  let actionError = null;
  let socket = null;
  const mine = () => loadIdentity()?.id || null;

  const el = {
    title: h("h1", { id: "tournament-title" }, "Tournament"),
    status: h("p", { class: "t-status", role: "status" }),
    rules: h("p", { class: "hint t-rules" }),
    conn: h("span", { class: "conn", hidden: true }),
    yourGame: h("div", { class: "your-game", hidden: true }),
    actions: h("div", { class: "t-actions" }),
    error: h("div", { class: "form-error", role: "alert", hidden: true }),
    podium: h("div", { class: "podium-slot" }),
    standings: h("div", { class: "standings-body" }),
    schedule: h("div", {}),
    entrants: h("div", {}),
  };
  fill(app, h("div", { class: "tournament-page" },
    h("section", { class: "card t-head", "aria-labelledby": "tournament-title" },
      h("div", { class: "card-head" }, el.title, el.conn), el.status, el.rules, el.yourGame, el.actions, el.error),
    el.podium,
    h("section", { class: "card", "aria-labelledby": "standings-title" },
      h("div", { class: "card-head" }, h("h2", { id: "standings-title" }, "Standings"),
        h("span", { class: "live-tag" }, h("span", { class: "dot", "aria-hidden": "true" }), "live")),
      el.standings),
    h("div", { class: "t-columns" },
      h("section", { class: "card", "aria-labelledby": "schedule-title" }, h("h2", { id: "schedule-title" }, "Games"), el.schedule),
      h("section", { class: "card", "aria-labelledby": "entrants-title" }, h("h2", { id: "entrants-title" }, "Players"), el.entrants))));

  // A game link followed from here: its page leads back to this tournament.
  const opened = (roomId) => rememberTournamentRoom(roomId, id);

  function show(view) {
    if (!view || (t && view.version < t.version)) return; // an older answer than the one shown
    t = view;
    const game = t.your_game;
    if (game && game.room_id && movedTo(id) !== game.room_id) {
      markMoved(id, game.room_id);
      opened(game.room_id);
      announce("Your game is ready: going to it.");
      location.assign(`/r/${encodeURIComponent(game.room_id)}`);
      return;
    }
    render();
  }

  function render() {
    const me = mine();
    document.title = `${t.name} · Tic-Tac-Toe`;
    el.title.textContent = t.name;
    el.status.textContent = statusText(t);
    el.rules.textContent = `${rulesText(t)} · up to ${t.max_players} players · ${t.public ? "public" : "private: by link"}`;
    const game = t.your_game;
    el.yourGame.hidden = !game;
    memo(el.yourGame, game ? game.room_id : "", () => fill(el.yourGame, game ? [
      h("strong", {}, "Your game is on. "),
      h("a", { class: "button primary small", href: `/r/${encodeURIComponent(game.room_id)}`, onclick: () => opened(game.room_id) }, "Play your game"),
    ] : []));
    const part = myPart(t, me);
    memo(el.actions, JSON.stringify([t.status, t.entrants.length, part, busy]), () => fill(el.actions, actionRow(part)));
    el.error.hidden = !actionError;
    fill(el.error, actionError ? [h("strong", {}, "Could not do that: "), actionError] : []);
    memo(el.podium, `${t.status}|${t.version}`, () => fill(el.podium, t.status === "finished" ? [
      h("section", { class: "card podium-card" }, podiumView(t),
        h("a", { class: "button primary", href: resultsCsvPath(id), download: `tournament-${id}.csv` }, "Download results (CSV)")),
    ] : []));
    memo(el.standings, `${t.version}|${me}`, () => fill(el.standings, standingsTable(t, me),
      h("p", { class: "hint" }, "W won, D drew, L lost (* by forfeit), … playing now; ties are split by Sonneborn–Berger, then head-to-head, then wins.")));
    memo(el.schedule, `${t.version}|${me}`, () => fill(el.schedule, scheduleList(t, me, opened)));
    memo(el.entrants, `${t.version}|${me}`, () => fill(el.entrants, entrantList(t, me),
      h("p", { class: "hint" }, `${t.entrants.length} of ${t.max_players} places taken.`)));
  }

  function actionRow(part) {
    const out = [];
    const button = (label, action, { tone = "", extra } = {}) => h("button", {
      type: "button", class: `button${tone ? ` ${tone}` : ""}`, disabled: busy !== null,
      "aria-busy": busy === action ? "true" : null, onclick: () => act(action, extra ? extra() : {}),
    }, label);
    if (part.canJoin) {
      out.push(h("label", { class: "field inline-field" }, h("span", { class: "field-label" }, "Your name"),
        h("input", { name: "entrant_name", maxlength: 32, autocomplete: "nickname", value: loadName() || guestName() })));
      out.push(button("Join the tournament", "join", { tone: "primary" }));
    } else if (t.status === "open" && !part.entrant && part.full) {
      out.push(h("p", { class: "hint" }, "This tournament is full."));
    }
    if (part.canStart) out.push(button("Start now", "start", { tone: "primary" }));
    if (part.canAddBot) {
      out.push(h("label", { class: "field inline-field" }, h("span", { class: "field-label" }, "Bot level"),
        h("select", { name: "bot_level" }, BOT_LEVELS.map((l) => h("option", { value: l.id, selected: l.id === "medium" }, l.label)))));
      out.push(button("Add bot", "bots", { extra: () => ({ level: el.actions.querySelector("[name=bot_level]").value }) }));
    }
    if (part.canWithdraw) out.push(button("Withdraw", "withdraw", { tone: "danger" }));
    if (part.creator && t.status === "open" && t.entrants.length < 2) {
      out.push(h("p", { class: "hint" }, "Two players at least: invite someone with the link, or add a bot."));
    }
    if (t.status !== "finished") {
      out.push(h("button", {
        type: "button", class: "button", onclick: async (event) => {
          const ok = await copyText(location.href.split("#")[0]);
          event.target.textContent = ok ? "Link copied" : "Copy failed";
          announce(ok ? "Link copied." : "Could not copy the link.");
        },
      }, "Copy link"));
    }
    return out;
  }

  async function act(action, extra) {
    busy = action;
    actionError = null;
    render();
    try {
      let player = loadIdentity();
      if (action === "join") {
        const input = el.actions.querySelector("[name=entrant_name]");
        const name = cleanName(input ? input.value : "") || loadName() || guestName();
        saveName(name);
        if (player) await renameIdentity(name); // the entrant goes by the name given now
        player = await ensureIdentity(name);
        if (!player) throw new Error("your player identity could not be made: try again in a moment");
      }
      if (!player) throw new Error("this browser holds no player identity");
      const before = socket ? socket.url : null;
      const view = await tournamentAction(id, action, player, extra);
      busy = null;
      show(view);
      if (tournamentSocketUrl(id, player.id) !== before) follow(); // now an entrant: its games
      announce({ join: "You are in.", withdraw: "You withdrew.", start: "The tournament started.", bots: "Bot added." }[action]);
    } catch (err) {
      busy = null;
      actionError = err.message;
      if (t) render();
    }
  }

  function follow() {
    if (socket) socket.stop("again");
    socket = new Connection(tournamentSocketUrl(id, mine()), {
      onMessage(msg) {
        if (msg.type === "tournament") {
          socket.healthy();
          show(msg);
        } else if (msg.type === "error" && msg.code === "not_found") {
          missing();
        }
      },
      onStatus: (conn) => renderConn(el.conn, conn, { onRetry: () => socket.reconnectNow() }),
    });
    socket.start();
  }

  function missing() {
    fill(app, h("section", { class: "card missing" },
      h("h1", {}, "No such tournament"),
      h("p", {}, "It may have finished long ago, or the link is wrong."),
      h("a", { class: "button primary", href: "/tournaments" }, "See the tournaments")));
  }

  getTournament(id, mine()).then(show, (err) => {
    if (err.code === "not_found") missing();
    else fill(el.status, `Could not load the tournament: ${err.message}`);
  });
  follow();
}
