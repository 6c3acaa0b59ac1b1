// A tournament as the pages show it (docs/tournaments.md), from the server's view (pure):
// its status in words, what this browser's identity may do in it, the crosstable (each
// entrant's result against each other one) and the podium. Plus what one tab remembers of
// it (sessionStorage): the room it moved its player to, so that it moves them to each game
// once, and which tournament a game's room belongs to, so that the game page leads back.

import { timeControlText } from "./clock.js";
import { describe, variantName } from "./rules.js";

/** The page of a tournament. */
export const tournamentPath = (id) => `/t/${encodeURIComponent(id)}`;

const when = (seconds) => new Date(seconds * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

/** "Open: starts when its creator starts it", "Round 2 of 3", "Finished". */
export function statusText(t) {
  if (t.status === "open") {
    return t.starts_at ? `Open: starts at ${when(t.starts_at)}` : "Open: starts when its creator starts it";
  }
  if (t.status === "running") return `Playing round ${t.round} of ${t.rounds}`;
  return "Finished";
}

/** "Classic · 3×3 · 3 in a row · 3 + 2 · round robin". */
export function rulesText(t) {
  const name = variantName(t.rules);
  const rules = describe(t.rules, { size: !/\d×\d/.test(name) });
  return [name, rules, timeControlText(t.time_control), "round robin"].join(" · ");
}

/** What `playerId` (this browser's identity, or null) may do in `t` now. */
export function myPart(t, playerId) {
  const me = playerId ? t.entrants.find((e) => e.id === playerId) || null : null;
  const open = t.status === "open";
  const creator = Boolean(playerId) && t.creator === playerId;
  const full = t.entrants.length >= t.max_players;
  return {
    entrant: me,
    creator,
    canJoin: open && !me && !full,
    canWithdraw: Boolean(me) && !me.withdrawn && t.status !== "finished",
    canStart: creator && open && t.entrants.length >= 2,
    canAddBot: creator && open && !full,
    full,
  };
}

const OUTCOME = {
  win: { text: "W", word: "won" },
  loss: { text: "L", word: "lost" },
  draw: { text: "D", word: "drew" },
};

/** One entrant's side of one game: {text, title, tone} ("W", "L", "D", "…" while played). */
function side(game, me, names) {
  const other = game.first === me ? game.second : game.first;
  const colour = game.first === me ? "X" : "O";
  if (game.result === null || game.result === undefined) {
    const text = game.room_id ? "…" : "";
    return { text, tone: "pending", title: `${game.room_id ? "Playing" : "To play"} ${names(other)} as ${colour}` };
  }
  const tone = game.result === "draw" ? "draw" : game.result === me ? "win" : "loss";
  const forfeit = game.forfeit ? ` (${game.forfeit === me ? "forfeited" : "by forfeit"})` : "";
  return {
    text: OUTCOME[tone].text + (game.forfeit ? "*" : ""),
    tone,
    title: `${OUTCOME[tone].word} against ${names(other)} as ${colour}${forfeit}`,
  };
}

/** The name of an entrant id in `t` (the id itself for one it does not list). */
export const namer = (t) => {
  const names = new Map(t.entrants.map((e) => [e.id, e.name]));
  return (id) => names.get(id) || id;
};

/** {order, cell(a, b)}: the standings' order, and a's result against b in their game
 *  (null on the diagonal, {text: ""} for a game not drawn yet). */
export function crosstable(t) {
  const order = t.standings.map((s) => s.id);
  const names = namer(t);
  const games = new Map();
  for (const round of t.schedule || []) {
    for (const g of round.games) {
      games.set(`${g.first}|${g.second}`, g);
      games.set(`${g.second}|${g.first}`, g);
    }
  }
  return {
    order,
    cell(a, b) {
      if (a === b) return null;
      const game = games.get(`${a}|${b}`);
      return game ? side(game, a, names) : { text: "", tone: "pending", title: "" };
    },
  };
}

/** The first three of the final standings, with their places. */
export const podium = (t) => (t.status === "finished" ? t.standings.slice(0, 3) : []);

/** A lobby line's facts: "3 of 8 players · Open". */
export function summaryText(t) {
  const state = t.status === "open" ? "open" : `round ${t.round} of ${t.rounds}`;
  return `${t.entrants} of ${t.max_players} players · ${state}`;
}

// -- what this tab remembers (sessionStorage: gone with the tab, as the moves it steers) ----

const ROOM_KEY = (roomId) => `ttt.tournament.room.${roomId}`;
const MOVED_KEY = (tournamentId) => `ttt.tournament.moved.${tournamentId}`;

function sessionRead(key) {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function sessionWrite(key, value) {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    /* storage refused: the game page then simply shows no way back */
  }
}

/** `roomId` plays a game of `tournamentId` (the room's snapshot does not say so). */
export const rememberTournamentRoom = (roomId, tournamentId) => sessionWrite(ROOM_KEY(roomId), tournamentId);

/** The tournament whose game `roomId` is, as this tab learnt it, or null. */
export const tournamentOfRoom = (roomId) => sessionRead(ROOM_KEY(roomId));

/** The room this tab last moved its player to from `tournamentId`'s page: a page opened again
 *  during (or just after) that game stays, rather than sending them straight back. */
export const movedTo = (tournamentId) => sessionRead(MOVED_KEY(tournamentId));

export const markMoved = (tournamentId, roomId) => sessionWrite(MOVED_KEY(tournamentId), roomId);
