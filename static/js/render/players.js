// The players' strip: one card per seat with mark, name, connection and whose turn.

import { fill, h } from "../dom.js";
import { piece } from "./pieces.js";

export function renderPlayers(root, view) {
  fill(root, view.players.map((p) => {
    const state = !p.seated ? "waiting" : p.connected ? "online" : "offline";
    const stateText = !p.seated ? "seat free" : p.connected ? "online" : "offline";
    const name = p.seated ? p.name : "Open seat";
    return h("li", {
      class: `player mark-${p.mark} ${state}${p.toMove ? " to-move" : ""}${p.winner ? " winner" : ""}${p.you ? " you" : ""}`,
      dataset: { mark: p.mark, state },
      "aria-label": `${p.mark}: ${name}${p.you ? " (you)" : ""}, ${stateText}${p.toMove ? ", to move" : ""}`,
    },
      h("span", { class: "player-mark" }, piece(p.mark)),
      h("span", { class: "player-body" },
        h("span", { class: "player-name" }, name, p.you ? h("span", { class: "you-tag" }, "you") : null),
        h("span", { class: "player-state" },
          h("span", { class: "dot", "aria-hidden": "true" }), stateText)),
      p.toMove ? h("span", { class: "turn-tag" }, "to move") : null,
      p.winner ? h("span", { class: "turn-tag win-tag" }, "winner") : null,
    );
  }));
}
