// A tournament as the pages show it (docs/tournaments.md), from the server's view (pure):
// its kind (a round robin, or an arena and its length), its status in words, an arena's
// countdown, what this browser's identity may do in it, the crosstable (each entrant's
// results against each other one) and the podium. Plus what one tab remembers of it
// (sessionStorage): the room it moved its player to, so that it moves them to each game once.

import { timeControlText } from "./clock.js";
import { describe, variantName } from "./rules.js";

/** The page of a tournament. */
export const tournamentPath = (id) => `/t/${encodeURIComponent(id)}`;

const when = (seconds) => new Date(seconds * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

/** An arena (pairings as players come free, for a fixed time), rather than a round robin. */
export const isArena = (t) => t.kind === "arena";

/** A knockout (a seeded single-elimination bracket). */
export const isKnockout = (t) => t.kind === "knockout";

/** "Final", "Semi-finals", "Quarter-finals", else "Round 2 of 5": a knockout round's name. */
export function knockoutRoundName(number, rounds) {
  const left = rounds - number; // rounds after this one
  if (left === 0) return "Final";
  if (left === 1) return "Semi-finals";
  if (left === 2) return "Quarter-finals";
  return `Round ${number} of ${rounds}`;
}

/** An arena's length: "5 min", "20 s", "1 min 30 s". */
export function durationText(seconds) {
  const whole = Math.round(seconds);
  const m = Math.floor(whole / 60);
  const s = whole % 60;
  if (!m) return `${s} s`;
  return s ? `${m} min ${s} s` : `${m} min`;
}

/** "Arena · 5 min", "Swiss · 3 rounds", "Knockout · draws replayed", "Round robin". */
export function kindText(t) {
  if (isArena(t)) return `Arena · ${durationText(t.duration)}`;
  if (t.kind === "swiss") return `Swiss · ${t.rounds} ${t.rounds === 1 ? "round" : "rounds"}`;
  if (isKnockout(t)) return `Knockout · ${t.draw_rule === "higher_seed" ? "a draw sends the higher seed on" : "draws replayed"}`;
  return t.double ? "Double round robin" : "Round robin";
}

/** Seconds until an arena stops pairing (`now`: the server's time in seconds), or null when
 *  it is not running or has no end set. */
export function secondsLeft(t, now) {
  if (!isArena(t) || t.status !== "running" || typeof t.ends_at !== "number") return null;
  return Math.max(0, t.ends_at - now);
}

/** "4:05", "1:00:00": a countdown in whole seconds, rounded up (0:00 only at the end). */
export function countdownText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** "Open: starts when its creator starts it", "Playing round 2 of 3", an arena's "Running:
 *  …" (`now` in server seconds: an arena past its end plays out its last games), "Finished". */
export function statusText(t, now) {
  if (t.status === "open") {
    return t.starts_at ? `Open: starts at ${when(t.starts_at)}` : "Open: starts when its creator starts it";
  }
  if (t.status === "running" && isArena(t)) {
    return secondsLeft(t, now) > 0
      ? "Running: players are paired as they come free"
      : "Time is up: the last games are being played out";
  }
  if (t.status === "running" && isKnockout(t)) return `Playing: ${knockoutRoundName(t.round, t.rounds).toLowerCase()}`;
  if (t.status === "running") return `Playing round ${t.round} of ${t.rounds}`;
  return "Finished";
}

/** "Classic · 3×3 · 3 in a row · 3 + 2 · round robin"; the other kinds' are in the page's head. */
export function rulesText(t) {
  const name = variantName(t.rules);
  const rules = describe(t.rules, { size: !/\d×\d/.test(name) });
  return [name, rules, timeControlText(t.time_control), ...(t.kind === "round_robin" ? ["round robin"] : [])].join(" · ");
}

/** Whether `t` takes entrants at `now` (server seconds): while open, and an arena while it
 *  runs, until its end. A lobby line or a whole view. */
export const takesEntrants = (t, now) => t.status === "open" || secondsLeft(t, now) > 0;

/** The entrants `t` starts with: an arena any, a Swiss one more than its rounds, else two. */
const fewestToStart = (t) => (isArena(t) ? 1 : t.kind === "swiss" ? t.rounds + 1 : 2);

/** What `playerId` (this browser's identity, or null) may do in `t` now (`now` in server
 *  seconds: an arena takes players and bots while it runs, until its end). */
export function myPart(t, playerId, now) {
  const me = playerId ? t.entrants.find((e) => e.id === playerId) || null : null;
  const open = t.status === "open";
  const entering = takesEntrants(t, now);
  const creator = Boolean(playerId) && t.creator === playerId;
  const full = t.entrants.length >= t.max_players;
  return {
    entrant: me,
    creator,
    canJoin: entering && !me && !full,
    canWithdraw: Boolean(me) && !me.withdrawn && t.status !== "finished",
    canStart: creator && open && t.entrants.length >= fewestToStart(t),
    canAddBot: creator && entering && !full,
    entering,
    full,
  };
}

/** An arena's entrant between games, before its end: their next pairing is coming. */
export function waitsForPairing(t, playerId, now) {
  if (t.your_game || !(secondsLeft(t, now) > 0)) return false;
  const me = playerId ? t.entrants.find((e) => e.id === playerId) : null;
  return Boolean(me) && !me.withdrawn;
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

/** {order, cell(a, b)}: the standings' order, and a's results against b (null on the
 *  diagonal, {text: ""} for a game not drawn yet). An arena's players may meet several
 *  times: every game shows, oldest first ("W L D"), with one tone when they all agree. */
export function crosstable(t) {
  const order = t.standings.map((s) => s.id);
  const names = namer(t);
  const games = new Map(); // "a|b" → their games in schedule order
  const add = (key, g) => games.set(key, [...(games.get(key) || []), g]);
  for (const round of t.schedule || []) {
    for (const g of round.games) {
      add(`${g.first}|${g.second}`, g);
      add(`${g.second}|${g.first}`, g);
    }
  }
  return {
    order,
    cell(a, b) {
      if (a === b) return null;
      const sides = (games.get(`${a}|${b}`) || []).map((g) => side(g, a, names));
      if (!sides.length) return { text: "", tone: "pending", title: "" };
      if (sides.length === 1) return sides[0];
      const tones = new Set(sides.map((x) => x.tone));
      return {
        text: sides.map((x) => x.text).filter(Boolean).join(" "),
        tone: tones.size === 1 ? sides[0].tone : "mixed",
        title: sides.map((x) => x.title).join("; "),
      };
    },
  };
}

/** The first three of the final standings, with their places. */
export const podium = (t) => (t.status === "finished" ? t.standings.slice(0, 3) : []);

/** A standing's rank as the table shows it: players level on every tie-break share it,
 *  "1=" each (the next is then 4th, core/standings.py). */
export const rankText = (s) => (s.shared ? `${s.rank}=` : String(s.rank));

const ORDINAL = { 1: "st", 2: "nd", 3: "rd" };

/** A podium place: "1st", "2nd", "3rd", or a shared one "1st=". */
export function placeText(s) {
  const tens = s.rank % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ORDINAL[s.rank % 10] || "th";
  return `${s.rank}${suffix}${s.shared ? "=" : ""}`;
}

const clockTime = (seconds) => new Date(seconds * 1000).toLocaleTimeString([], { timeStyle: "short" });

/** A lobby line's facts: "3 of 8 players · open", "… · round 2 of 3", an arena's "… · running
 *  until 20:35". */
export function summaryText(t) {
  let state = "open";
  if (t.status !== "open" && isArena(t)) state = t.ends_at ? `running until ${clockTime(t.ends_at)}` : "running";
  else if (t.status !== "open" && isKnockout(t)) state = knockoutRoundName(t.round, t.rounds).toLowerCase();
  else if (t.status !== "open") state = `round ${t.round} of ${t.rounds}`;
  return `${t.entrants} of ${t.max_players} players · ${state}`;
}

// -- what this tab remembers (sessionStorage: gone with the tab, as the moves it steers) ----

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
    /* storage refused: a page opened again during a game moves to it once more */
  }
}

/** The room this tab last moved its player to from `tournamentId`'s page: a page opened again
 *  during (or just after) that game stays, rather than sending them straight back. */
export const movedTo = (tournamentId) => sessionRead(MOVED_KEY(tournamentId));

export const markMoved = (tournamentId, roomId) => sessionWrite(MOVED_KEY(tournamentId), roomId);
