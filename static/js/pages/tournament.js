// A tournament's page (/t/{id}): its rules and status, the entrants, the live standings with
// the crosstable, the schedule with each game's room, and the podium and the results table
// once it is finished. It follows /ws/t/{id}?player=ID, which sends the whole view on every
// change; when this browser's entrant gets a game (`your_game`), the page moves to that room
// by itself (once a room: a player who comes back during that game stays). Join and withdraw
// use this browser's identity; the creator also starts it and adds bots. An arena's page
// counts down to its end (`ends_at`, against the server's clock: api.js's serverNow), takes
// players and bots until then, tells a player between games that a pairing is coming, and
// lists its pairings newest first. A knockout's page draws its bracket above the standings.

import { gameRecordsPath, getTournament, resultsCsvPath, serverNow, tournamentAction } from "../net/api.js";
import { announce } from "../browser/announce.js";
import { copyText } from "../browser/clipboard.js";
import { fill, h, memo, text } from "../browser/dom.js";
import { ensureIdentity, renameIdentity } from "../net/identity.js";
import { BOT_LEVELS } from "./lobby-options.js";
import { cleanName, guestName } from "../model/names.js";
import { newId, pingMessage } from "../net/protocol.js";
import { Connection } from "../net/socket.js";
import { renderConn } from "../render/conn.js";
import { bracketView, entrantList, podiumView, scheduleList, standingsTable } from "../render/tournament.js";
import { loadIdentity, loadName, saveName } from "../browser/storage.js";
import {
  countdownText, isArena, isKnockout, kindText, markMoved, movedTo, myPart, rulesText, secondsLeft,
  statusText, waitsForPairing,
} from "../model/tournament.js";
import { tournamentSocketUrl } from "../game/tournament-follow.js";

const TICK_MS = 250; // the countdown's refresh: a second's change shows within a quarter

export function startTournament(app, id) {
  let t = null; // the newest view the server sent
  let busy = null; // the action waiting for its answer
  let actionError = null;
  let socket = null;
  let allPairings = false; // an arena's whole list of pairings asked for
  const mine = () => loadIdentity()?.id || null;

  const el = {
    title: h("h1", { id: "tournament-title" }, "Tournament"),
    kind: h("span", { class: "tag t-kind", hidden: true }),
    status: h("p", { class: "t-status", role: "status" }),
    countdown: h("p", { class: "t-countdown", "aria-live": "off", hidden: true }),
    rules: h("p", { class: "hint t-rules" }),
    conn: h("span", { class: "conn", hidden: true }),
    live: h("span", { class: "live-tag", hidden: true }, h("span", { class: "dot", "aria-hidden": "true" }), "live"),
    yourGame: h("div", { class: "your-game", hidden: true }),
    actions: h("div", { class: "t-actions" }),
    error: h("div", { class: "form-error", role: "alert", hidden: true }),
    podium: h("div", { class: "podium-slot" }),
    bracketCard: h("section", { class: "card bracket-card", "aria-labelledby": "bracket-title", hidden: true },
      h("h2", { id: "bracket-title" }, "Bracket")),
    bracket: h("div", { class: "bracket-body" }),
    standings: h("div", { class: "standings-body" }),
    schedule: h("div", {}),
    entrants: h("div", {}),
  };
  el.bracketCard.append(el.bracket);
  fill(app, h("div", { class: "tournament-page" },
    h("section", { class: "card t-head", "aria-labelledby": "tournament-title" },
      h("div", { class: "card-head" }, el.title, el.kind, el.conn),
      el.status, el.countdown, el.rules, el.yourGame, el.actions, el.error),
    el.podium,
    el.bracketCard,
    h("section", { class: "card", "aria-labelledby": "standings-title" },
      h("div", { class: "card-head" }, h("h2", { id: "standings-title" }, "Standings"), el.live),
      el.standings),
    h("div", { class: "t-columns" },
      h("section", { class: "card", "aria-labelledby": "schedule-title" }, h("h2", { id: "schedule-title" }, "Games"), el.schedule),
      h("section", { class: "card", "aria-labelledby": "entrants-title" }, h("h2", { id: "entrants-title" }, "Players"), el.entrants))));

  function show(view) {
    if (!view || (t && view.version < t.version)) return; // an older answer than the one shown
    t = view;
    const game = t.your_game;
    if (game && game.room_id && movedTo(id) !== game.room_id) {
      markMoved(id, game.room_id);
      announce("Your game is ready: going to it.");
      location.assign(`/r/${encodeURIComponent(game.room_id)}`);
      return;
    }
    render();
  }

  function render() {
    const me = mine();
    const now = serverNow();
    document.title = `${t.name} · Tic-Tac-Toe`;
    text(el.title, t.name);
    el.kind.hidden = t.kind === "round_robin" && !t.double; // a plain round robin needs no tag
    text(el.kind, kindText(t));
    text(el.status, statusText(t, now));
    el.live.hidden = t.status !== "running"; // the standings move only while games are played
    const left = secondsLeft(t, now);
    el.countdown.hidden = !left; // past the end too: the status says the last games play out
    text(el.countdown, left ? `Ends in ${countdownText(left)}` : "");
    text(el.rules, `${rulesText(t)} · up to ${t.max_players} players · ${t.public ? "public" : "private: by link"}`);
    const game = t.your_game;
    const waiting = !game && waitsForPairing(t, me, now);
    el.yourGame.hidden = !game && !waiting;
    memo(el.yourGame, game ? game.room_id : String(waiting), () => fill(el.yourGame, game ? [
      h("strong", {}, "Your game is on. "),
      h("a", { class: "button primary small", href: `/r/${encodeURIComponent(game.room_id)}` }, "Play your game"),
    ] : waiting ? [
      h("strong", { class: "waiting-note" }, "Waiting for the next pairing…"),
      h("span", { class: "hint" }, "Your next game opens here by itself."),
    ] : []));
    const part = myPart(t, me, now);
    memo(el.actions, JSON.stringify([t.status, t.entrants.length, part, busy]), () => fill(el.actions, actionRow(part)));
    el.error.hidden = !actionError;
    memo(el.error, actionError || "", () => fill(el.error, actionError ? [h("strong", {}, "Could not do that: "), actionError] : []));
    memo(el.podium, `${t.status}|${t.version}`, () => fill(el.podium, t.status === "finished" ? [
      h("section", { class: "card podium-card" }, podiumView(t),
        h("div", { class: "downloads" },
          h("a", { class: "button primary", href: resultsCsvPath(id), download: `tournament-${id}.csv` }, "Download results (CSV)"),
          h("a", { class: "button", href: gameRecordsPath(id), download: `tournament-${id}-games.txt` }, "Download game records"))),
    ] : []));
    el.bracketCard.hidden = !isKnockout(t);
    if (isKnockout(t)) memo(el.bracket, `${t.version}|${me}`, () => fill(el.bracket, bracketView(t, me)));
    memo(el.standings, `${t.version}|${me}`, () => fill(el.standings, standingsTable(t, me),
      h("p", { class: "hint" }, "W won, D drew, L lost (* by forfeit), … playing now",
        isArena(t) ? " (every game against a player, oldest first)" : "",
        isKnockout(t)
          ? "; ranked by how far each came, then by seed."
          : "; ties are split by Sonneborn–Berger, then head-to-head, then wins; players level on all of them share a place (1=).")));
    memo(el.schedule, `${t.version}|${me}|${allPairings}`, () => fill(el.schedule, scheduleList(t, me, {
      all: allPairings,
      onShowAll: () => {
        allPairings = true;
        render();
      },
    })));
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
    } else if (part.entering && !part.entrant && part.full) {
      out.push(h("p", { class: "hint" }, "This tournament is full."));
    }
    if (part.canStart) out.push(button("Start now", "start", { tone: "primary" }));
    if (part.canAddBot) {
      out.push(h("label", { class: "field inline-field" }, h("span", { class: "field-label" }, "Bot level"),
        h("select", { name: "bot_level" }, BOT_LEVELS.map((l) => h("option", { value: l.id, selected: l.id === "medium" }, l.label)))));
      out.push(button("Add bot", "bots", { extra: () => ({ level: el.actions.querySelector("[name=bot_level]").value }) }));
    }
    if (part.canWithdraw) out.push(button("Withdraw", "withdraw", { tone: "danger" }));
    if (part.creator && t.status === "open" && isArena(t)) {
      out.push(h("p", { class: "hint" }, "Players may join while it runs, until its end: share the link."));
    } else if (part.creator && t.status === "open" && !part.canStart) {
      const least = t.kind === "swiss" ? `${t.rounds + 1} players at least for ${t.rounds} rounds` : "Two players at least";
      out.push(h("p", { class: "hint" }, `${least}: invite someone with the link, or add a bot.`));
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
      ping: () => pingMessage(newId("p")), // the heartbeat: the socket answers pong
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

  // An arena's countdown, and what changes at its end (Join and Add bot go, the status says
  // the last games play out): drawn from the server's time between the views it sends.
  setInterval(() => {
    if (t && isArena(t) && t.status === "running") render();
  }, TICK_MS);

  getTournament(id, mine()).then(show, (err) => {
    if (err.code === "not_found") missing();
    else fill(el.status, `Could not load the tournament: ${err.message}`);
  });
  follow();
}
