// The players' strip: one card per seat with mark, name, connection (or bot level), the
// series score and whose turn. The cards are rebuilt when a player changes. The clocks are
// beside the board (render/clocks.js), the first-move limit in the offers' strip: each fact
// has one place.

import { fill, h } from "../browser/dom.js";
import { botMark } from "./bot-mark.js";
import { piece } from "./pieces.js";

function stateOf(p) {
  if (!p.seated) return { state: "waiting", text: "seat free" };
  if (p.bot) return { state: "bot", text: `bot · ${p.bot}` };
  if (p.connected) return { state: "online", text: "online" };
  return { state: "offline", text: p.left ? "left" : "offline" };
}

export function renderPlayers(root, view) {
  fill(root, view.players.map((p) => {
    const st = stateOf(p);
    const name = p.seated ? p.name : "Open seat";
    const scoreLabel = p.score !== null && view.series ? `, score ${p.score}` : "";
    return h("li", {
      class: `player mark-${p.mark} ${st.state}${p.toMove ? " to-move" : ""}${p.winner ? " winner" : ""}${p.you ? " you" : ""}`,
      dataset: { mark: p.mark, state: st.state },
      "aria-label": `${p.mark}: ${name}${p.botAccount ? " (bot)" : ""}${p.you ? " (you)" : ""}, ${st.text}${p.toMove ? ", to move" : ""}${scoreLabel}`,
    },
      h("span", { class: "player-mark" }, piece(p.mark)),
      h("span", { class: "player-body" },
        h("span", { class: "player-name" }, h("span", { class: "name-text" }, name), botMark(p.botAccount)), // "You play X" says whose
        h("span", { class: "player-state" },
          h("span", { class: "dot", "aria-hidden": "true" }), st.text)),
      p.score !== null && view.series
        ? h("span", { class: "score", title: "Series score", "aria-hidden": "true" }, p.score) : null,
      p.toMove && !p.clock ? h("span", { class: "turn-tag" }, "to move") : null, // else the lit clock says it
      p.winner ? h("span", { class: "turn-tag win-tag" }, "winner") : null,
    );
  }));
}
