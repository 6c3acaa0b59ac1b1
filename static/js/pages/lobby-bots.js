// The lobby's "Play a bot" card: the bot accounts online now (programs people brought, each
// with the BOT mark; docs/protocol.md, "Bots"), kept up to date, and a Play button on each
// that challenges it to a classic untimed game (POST /api/bots/{id}/challenge) and takes the
// player to the room, seated; the bot accepts by joining, or declines and the game is
// aborted. The project's own bots are in the custom game's form.

import { fill, h } from "../browser/dom.js";
import { saveName, saveSeat } from "../browser/storage.js";
import { PRESETS } from "../model/rules.js";
import { challengeBot, listBots } from "../net/api.js";
import { ensureIdentity } from "../net/identity.js";
import { botMark } from "../render/bot-mark.js";

const POLL_MS = 5000;

/** The card; `name()` gives the name to play under. */
export function botsCard({ name }) {
  const list = h("div", { class: "bot-list" }, h("p", { class: "empty-note" }, "Loading…"));
  const error = h("div", { class: "form-error", role: "alert", hidden: true });
  const classic = (PRESETS.find((p) => p.id === "classic") || PRESETS[0]).rules;

  async function play(button, bot) {
    error.hidden = true;
    button.disabled = true;
    button.textContent = "Challenging…";
    try {
      const who = name();
      saveName(who);
      const player = await ensureIdentity(who);
      const seat = await challengeBot(bot.player_id, classic, null, who, player);
      saveSeat(seat.room_id, { token: seat.token, mark: seat.mark });
      location.assign(`/r/${encodeURIComponent(seat.room_id)}`);
    } catch (err) {
      error.hidden = false;
      fill(error, h("strong", {}, `Could not challenge ${bot.name}: `), err.message);
      button.disabled = false;
      button.textContent = "Play";
    }
  }

  function draw(bots) {
    if (!bots.length) {
      fill(list, h("p", { class: "empty-note" }, "No bot is online right now."));
      return;
    }
    fill(list, h("ul", { class: "room-list bots" }, bots.map((bot) => {
      const button = h("button", { type: "button", class: "button small primary", "aria-label": `Play ${bot.name}, a bot` }, "Play");
      button.addEventListener("click", () => play(button, bot));
      return h("li", { class: "room-item bot-item", dataset: { bot: bot.player_id } },
        h("span", { class: "bot-name" }, bot.name, botMark(bot.bot)), button);
    })));
  }

  async function poll() {
    try {
      draw(await listBots());
    } catch {
      fill(list, h("p", { class: "empty-note" }, "Could not load the bots; retrying…"));
    }
    setTimeout(poll, POLL_MS);
  }
  poll();
  return h("section", { class: "card bots-card", "aria-labelledby": "bots-title" },
    h("h2", { id: "bots-title" }, "Play a bot"),
    h("p", { class: "hint" }, "Bots people run online: a classic game, untimed."),
    list, error);
}
