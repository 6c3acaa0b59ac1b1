// The players' strip: one card per seat with mark, name, connection (or bot level), the
// series score, whose turn, and the clock. The cards are rebuilt when a player changes;
// the clock digits are updated in place on every tick (updateClocks).

import { fill, h, cls, text } from "../dom.js";
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
      "aria-label": `${p.mark}: ${name}${p.you ? " (you)" : ""}, ${st.text}${p.toMove ? ", to move" : ""}${scoreLabel}`,
    },
      h("span", { class: "player-mark" }, piece(p.mark)),
      h("span", { class: "player-body" },
        h("span", { class: "player-name" },
          h("span", { class: "name-text" }, name),
          p.you ? h("span", { class: "you-tag" }, "you") : null),
        h("span", { class: "player-state" },
          h("span", { class: "dot", "aria-hidden": "true" }), st.text,
          h("span", { class: "first-move", dataset: { part: "first" }, hidden: true }))),
      p.score !== null && view.series
        ? h("span", { class: "score", title: "Series score", "aria-hidden": "true" }, p.score) : null,
      p.toMove && !p.clock ? h("span", { class: "turn-tag" }, "to move") : null,
      p.winner ? h("span", { class: "turn-tag win-tag" }, "winner") : null,
      p.clock ? h("span", { class: "clock", role: "timer", dataset: { mark: p.mark } }) : null,
    );
  }));
  updateClocks(root, view);
}

/** The clocks' digits and states, and each player's first-move countdown. */
export function updateClocks(root, view) {
  for (const p of view.players) {
    const card = root.querySelector(`.player[data-mark="${p.mark}"]`);
    if (!card) continue;
    const el = card.querySelector(".clock");
    if (el && p.clock) {
      text(el, p.clock.text);
      cls(el, "running", p.clock.running);
      cls(el, "low", p.clock.low);
      cls(el, "out", p.clock.out);
      const label = `${p.mark}'s clock: ${p.clock.text}${p.clock.running ? ", running" : ""}`;
      if (el.getAttribute("aria-label") !== label) el.setAttribute("aria-label", label);
    }
    const first = card.querySelector('[data-part="first"]');
    if (first) {
      first.hidden = p.firstMove === null;
      text(first, p.firstMove === null ? "" : ` · first move ${p.firstMove}s`);
    }
  }
}
