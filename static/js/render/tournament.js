// A tournament's page parts, drawn from the server's view (pure: view → DOM): the entrants,
// the standings with the crosstable, the schedule round by round (an arena's pairings newest
// first, the latest few unless all are asked for) with each game's room, a knockout's bracket,
// and the podium once it is finished.

import { h } from "../browser/dom.js";
import {
  crosstable, isArena, isKnockout, knockoutRoundName, namer, placeText, podium, rankText,
} from "../model/tournament.js";
import { botMark } from "./bot-mark.js";
import { piece } from "./pieces.js";

const watchPath = (roomId) => `/r/${encodeURIComponent(roomId)}/watch`;
const playPath = (roomId) => `/r/${encodeURIComponent(roomId)}`;

/** The entrants in the order they entered (the order the schedule is drawn from). */
export function entrantList(t, mine) {
  if (!t.entrants.length) return h("p", { class: "empty-note" }, "Nobody has entered yet.");
  return h("ol", { class: "entrant-list" }, t.entrants.map((e) => h("li", {
    class: e.id === mine ? "mine" : null, dataset: { entrant: e.id },
  },
  h("span", { class: "entrant-name" }, e.name),
  botMark(e.bot_account),
  e.id === mine ? h("span", { class: "tag" }, "you") : null,
  e.id === t.creator ? h("span", { class: "tag" }, "creator") : null,
  e.bot ? h("span", { class: "tag" }, "bot") : null,
  e.withdrawn ? h("span", { class: "tag warn" }, "withdrawn") : null)));
}

/** Rank, name, points, games, wins/draws/losses, Sonneborn–Berger, then one column per
 *  entrant (numbered by rank) with the result against them. */
export function standingsTable(t, mine) {
  if (!t.standings.length) {
    // before the start the entrants are listed beside this, and nothing is ranked yet
    const why = t.entrants && t.entrants.length ? "The standings start with the first round." : "No entrants yet.";
    return h("p", { class: "empty-note" }, why);
  }
  const cross = crosstable(t);
  const number = new Map(cross.order.map((id, i) => [id, i + 1]));
  const names = namer(t);
  const bots = new Set(t.entrants.filter((e) => e.bot_account).map((e) => e.id));
  const th = (text, title) => h("th", { scope: "col", title: title || null }, text);
  return h("div", { class: "table-scroll" }, h("table", { class: "standings" },
    h("caption", { class: "sr-only" }, "Standings, best first, with each result against each opponent"),
    h("thead", {}, h("tr", {},
      th("#", "Rank"), th("Player"), th("Pts", "Points: 3 a win, 1 a draw"), th("Games"),
      th("W", "Wins"), th("D", "Draws"), th("L", "Losses"), th("SB", "Sonneborn–Berger tie-break"),
      cross.order.map((id) => th(String(number.get(id)), `Against ${names(id)}`)))),
    h("tbody", {}, t.standings.map((s) => h("tr", { class: s.id === mine ? "mine" : null, dataset: { entrant: s.id } },
      h("td", { class: "rank", title: s.shared ? "Shared: level on every tie-break" : null }, rankText(s)),
      h("th", { scope: "row", class: "standing-name" }, h("span", { class: "cross-number" }, `${number.get(s.id)}.`), " ", s.name, botMark(bots.has(s.id))),
      h("td", { class: "points" }, String(s.points)),
      h("td", {}, String(s.played)),
      h("td", {}, String(s.wins)), h("td", {}, String(s.draws)), h("td", {}, String(s.losses)),
      h("td", {}, String(s.sonneborn_berger)),
      cross.order.map((other) => {
        const c = cross.cell(s.id, other);
        if (!c) return h("td", { class: "cross self", "aria-label": "itself" }, "—");
        return h("td", { class: "cross", dataset: { tone: c.tone, against: other }, title: c.title || null, "aria-label": c.title || "not played yet" }, c.text);
      }))))));
}

/** How many of an arena's pairings show before "Show all". */
export const ARENA_PAIRINGS_SHOWN = 6;

function gameLine(g, t, mine) {
  const names = namer(t);
  const mineHere = g.first === mine || g.second === mine;
  let result = "not started";
  if (g.result === "draw") result = "draw";
  else if (g.result) result = `${names(g.result)} won${g.forfeit ? ` (${names(g.forfeit)} forfeited)` : ""}`;
  else if (g.room_id) result = "playing";
  const live = g.room_id && !g.result;
  const link = g.room_id
    ? h("a", {
      class: `button small${live && mineHere ? " primary" : ""}`,
      href: live && mineHere ? playPath(g.room_id) : watchPath(g.room_id),
    }, live && mineHere ? "Play" : g.result ? "Replay" : "Watch")
    : null;
  return h("li", { class: `game-line${mineHere ? " mine" : ""}`, dataset: { room: g.room_id || "", result: g.result || "" } },
    h("span", { class: "game-players" },
      h("span", { class: "side mark-X" }, piece("X"), names(g.first)),
      h("span", { class: "versus" }, "vs"),
      h("span", { class: "side mark-O" }, piece("O"), names(g.second))),
    h("span", { class: "game-result" }, result),
    link);
}

/** Every round with its games (room links open them to watch, or to play one's own). An
 *  arena's pairings, which may be many, come newest first: the latest ARENA_PAIRINGS_SHOWN
 *  unless `all`, with a button (`onShowAll`) for the rest. */
export function scheduleList(t, mine, { all = false, onShowAll } = {}) {
  const arena = isArena(t);
  if (!t.schedule.length) {
    return h("p", { class: "empty-note" }, arena
      ? "Players are paired once the arena starts, and again each time they come free."
      : t.kind === "swiss"
        ? "Round 1 is paired when the tournament starts, each next round from the standings."
        : isKnockout(t)
          ? "The first round's games are made when the knockout starts."
          : "The schedule is drawn when the tournament starts: everyone plays everyone once.");
  }
  const names = namer(t);
  const rounds = arena ? [...t.schedule].reverse() : t.schedule;
  const shown = arena && !all ? rounds.slice(0, ARENA_PAIRINGS_SHOWN) : rounds;
  const hidden = rounds.length - shown.length;
  const current = (round) => !arena && round.number === t.round && t.status === "running";
  return h("div", { class: "schedule" }, shown.map((round) => h("section", {
    class: `t-round${current(round) ? " current" : ""}`,
    "aria-labelledby": `round-${round.number}`,
    dataset: { round: round.number },
  },
  h("h3", { id: `round-${round.number}` },
    isKnockout(t) ? knockoutRoundName(round.number, t.rounds) : `${arena ? "Pairing" : "Round"} ${round.number}`,
    current(round) ? h("span", { class: "tag" }, "now") : null),
  h("ul", { class: "game-lines" }, round.games.map((g) => gameLine(g, t, mine))),
  round.bye ? h("p", { class: "hint bye" }, `${names(round.bye)} sits this round out (a bye: 3 points).`) : null)),
  hidden > 0 ? h("button", { type: "button", class: "button small show-all", onclick: onShowAll },
    `Show all ${rounds.length} pairings (${hidden} older)`) : null);
}

/** One place of a bracket's match: the seed and name, a letter per game (W, D, L), and whether
 *  they went through; a bye's empty place, or one not decided yet (the feeding match's winner). */
function bracketPlace(t, match, slot, mine, names) {
  const id = match.players[slot];
  if (!id) {
    const text = match.bye ? "bye" : "to be decided";
    return h("div", { class: "b-place empty" }, h("span", { class: "b-seed" }, ""), h("span", { class: "b-name" }, text));
  }
  const letters = match.games.filter((g) => g.result).map((g) => (g.result === "draw" ? "D" : g.result === id ? "W" : "L"));
  const through = match.winner === id;
  const out = match.winner && !through;
  return h("div", {
    class: `b-place${through ? " through" : ""}${out ? " out" : ""}${id === mine ? " mine" : ""}`,
    dataset: { entrant: id },
  },
  h("span", { class: "b-seed", title: "Seed" }, String(match.seeds[slot])),
  h("span", { class: "b-name" }, names(id)),
  h("span", { class: "b-score", "aria-label": letters.length ? `results: ${letters.join(" ")}` : null }, letters.join(" ")),
  through ? h("span", { class: "b-through" }, match.bye ? "through (bye)" : "through") : null);
}

/** The game under way in a match (or its last one) as a link: play one's own, watch others. */
function bracketGame(match, mine) {
  const live = match.games.find((g) => g.room_id && !g.result);
  const game = live || [...match.games].reverse().find((g) => g.room_id);
  if (!game) return null;
  const own = live && (live.first === mine || live.second === mine);
  const label = own ? "Play" : live ? "Watch" : "Replay";
  const replays = match.games.length > 1 ? ` (game ${match.games.indexOf(game) + 1})` : "";
  return h("a", {
    class: `button small b-link${own ? " primary" : ""}`,
    href: own ? playPath(game.room_id) : watchPath(game.room_id),
  }, label + replays);
}

/** A knockout's bracket: its rounds side by side, each match with its two places, the
 *  letters of its games (a drawn game replayed shows D then the decider) and who went
 *  through. On a narrow screen the rounds scroll sideways, one beside the next. */
export function bracketView(t, mine) {
  if (!t.bracket) return h("p", { class: "empty-note" }, "The bracket is drawn when the knockout starts: seeded by rating, 1 v " + Math.max(2, t.entrants.length) + ", byes to the top seeds.");
  const names = namer(t);
  return h("div", { class: "bracket", role: "group", "aria-label": "Bracket" }, t.bracket.map((round) => h("section", {
    class: `b-round${round.number === t.round && t.status === "running" ? " current" : ""}`,
    "aria-labelledby": `b-round-${round.number}`,
    dataset: { round: round.number },
  },
  h("h3", { id: `b-round-${round.number}` }, knockoutRoundName(round.number, t.bracket.length)),
  h("ol", { class: "b-matches" }, round.matches.map((match) => h("li", {
    class: `b-match${match.players.includes(mine) && mine ? " mine" : ""}`,
    dataset: { match: match.index, state: match.winner ? "decided" : match.games.some((g) => g.room_id && !g.result) ? "playing" : "waiting" },
  },
  bracketPlace(t, match, 0, mine, names),
  bracketPlace(t, match, 1, mine, names),
  bracketGame(match, mine)))))));
}

/** The first three of a finished tournament, the winner in the middle; a shared place says
 *  so ("1st=" on each of three tied). */
export function podiumView(t) {
  const top = podium(t);
  if (!top.length) return null;
  return h("section", { class: "podium", "aria-labelledby": "podium-title" },
    h("h2", { id: "podium-title" }, "Podium"),
    h("ol", { class: "podium-steps" }, top.map((s, i) => h("li", { class: `step place-${i + 1}`, dataset: { place: i + 1 } },
      h("span", { class: "place" }, placeText(s)),
      h("strong", { class: "podium-name" }, s.name),
      h("span", { class: "podium-points" }, `${s.points} ${s.points === 1 ? "point" : "points"}`)))));
}
