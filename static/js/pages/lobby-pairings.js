// The lobby's one-click pairings (as on lichess): a grid of the common games by time
// control; a click seats the player at once with quick play (POST /api/quickplay), with
// whoever wants the same game and clock, or in a new room that waits for them. The same
// quick play serves the custom form's Quick play button (quickSeat).

import { announce } from "../browser/announce.js";
import { fill, h } from "../browser/dom.js";
import { newJoinKey, saveName, saveSeat } from "../browser/storage.js";
import { PRESETS } from "../model/rules.js";
import { timeControlText } from "../model/clock.js";
import { ensureIdentity } from "../net/identity.js";
import { quickPlay } from "../net/api.js";

/** The grid's rows (the presets by id) and columns (a clock, or none). */
export const PAIRING_GAMES = Object.freeze(["classic", "connect4", "gomoku", "cube"]);
export const PAIRING_CLOCKS = Object.freeze([
  { label: "Bullet", tc: { initial: 60, increment: 0 } },
  { label: "Blitz", tc: { initial: 180, increment: 2 } },
  { label: "Rapid", tc: { initial: 600, increment: 5 } },
  { label: "Untimed", tc: null },
]);

/** Seats `name` by quick play for `rules` and `tc`; `key` is the join key kept across retries
 *  of one request (an answer lost on the way gives no second seat). The room's id. */
export async function quickSeat(rules, tc, name, key) {
  saveName(name);
  const player = await ensureIdentity(name); // the seat links to it (made the first time)
  const seat = await quickPlay(rules, tc, name, key, player);
  saveSeat(seat.room_id, { token: seat.token, mark: seat.mark }); // the seat taken for us
  return seat.room_id;
}

/** The grid; `name()` gives the name to play under when a cell is clicked. */
export function pairingGrid({ name }) {
  const error = h("div", { class: "form-error", role: "alert", hidden: true });
  const cells = [];
  let key = null; // the join key of the pairing being tried, until it seats us
  let tried = null;

  async function play(button, preset, clock) {
    error.hidden = true;
    const label = button.querySelector(".pairing-clock").textContent;
    if (tried !== button) key = null; // another pairing: another request
    tried = button;
    key = key || newJoinKey();
    for (const c of cells) c.disabled = true;
    button.classList.add("busy");
    button.querySelector(".pairing-kind").textContent = "Finding…";
    announce(`Finding a game of ${preset.label}, ${label}…`);
    try {
      const roomId = await quickSeat(preset.rules, clock.tc, name(), key);
      location.assign(`/r/${encodeURIComponent(roomId)}`);
    } catch (err) {
      if (err.status >= 400 && err.status < 500) key = null; // refused: nothing was seated
      error.hidden = false;
      fill(error, h("strong", {}, "Could not find a game: "), err.message);
      for (const c of cells) c.disabled = false;
      button.classList.remove("busy");
      button.querySelector(".pairing-kind").textContent = clock.label;
    }
  }

  const rows = PAIRING_GAMES.map((id) => PRESETS.find((p) => p.id === id)).filter(Boolean).map((preset) =>
    h("div", { class: "pairing-row", role: "group", "aria-label": preset.label },
      h("span", { class: "pairing-game" },
        h("strong", {}, preset.label), h("small", {}, preset.hint)),
      PAIRING_CLOCKS.map((clock) => {
        const text = clock.tc ? timeControlText(clock.tc) : "∞";
        const button = h("button", {
          type: "button", class: "pairing",
          "aria-label": `${preset.label}, ${clock.tc ? timeControlText(clock.tc) : "no clock"}`,
          dataset: { game: preset.id, clock: clock.label.toLowerCase() },
        },
          h("span", { class: "pairing-clock" }, text),
          h("span", { class: "pairing-kind" }, clock.label));
        button.addEventListener("click", () => play(button, preset, clock));
        cells.push(button);
        return button;
      })));
  return h("div", { class: "pairings" },
    h("div", { class: "pairing-grid" }, rows),
    error);
}
