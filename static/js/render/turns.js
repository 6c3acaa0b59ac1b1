// The lobby's "Your turn": the player's correspondence games (GET /api/players/{id}/games),
// those where it is their move first, each with the time left to make it. Pure: state → DOM.

import { fill, h } from "../browser/dom.js";
import { formatClock, timeControlText } from "../model/clock.js";
import { variantName } from "../model/rules.js";
import { piece } from "./pieces.js";

/** `state`: {games, now (the server's time, seconds), error}; `now` moves the time left on
 *  between two answers. Draws nothing but the heading when there are no games. */
export function renderTurns(root, { games, error }, now) {
  const mine = games.filter((g) => g.your_turn);
  root.hidden = !games.length && !error;
  fill(root,
    h("div", { class: "card-head" },
      h("h2", { id: "turns-title" }, "Your turn",
        h("span", { class: "count-badge", "aria-label": `${mine.length} games wait for your move` }, String(mine.length)))),
    error ? h("p", { class: "list-error", role: "alert" }, h("strong", {}, "Could not load your games: "), error) : null,
    games.length ? h("ul", { class: "room-list turn-list" }, games.map((g) => turnItem(g, now))) : null);
}

function turnItem(game, now) {
  const left = typeof game.deadline === "number" ? Math.max(0, game.deadline - now) : null;
  const against = game.opponents.length ? `vs ${game.opponents.join(", ")}` : "waiting for a player";
  const whose = game.status !== "playing" ? "Waiting" : game.your_turn ? "Your move" : "Their move";
  return h("li", { class: `room-item turn-item${game.your_turn ? " my-turn" : ""}`, dataset: { roomId: game.room_id, yourTurn: String(game.your_turn) } },
    h("div", { class: "room-variant" },
      h("strong", {}, piece(game.mark), " ", variantName(game.rules)),
      h("span", { class: "room-rules" }, [against, timeControlText(game.time_control)].join(" · "))),
    h("div", { class: "turn-state" },
      h("strong", { class: "turn-whose" }, whose),
      left !== null ? h("span", { class: "turn-left", title: "Time left for this move" }, `${formatClock(left)} left`) : null),
    h("div", { class: "room-actions" },
      h("a", { class: `button small${game.your_turn ? " primary" : ""}`, href: `/r/${encodeURIComponent(game.room_id)}` },
        game.your_turn ? "Play" : "Open")));
}
