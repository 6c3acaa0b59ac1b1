// The big clocks beside the board (as on lichess): the opponent's at the top, the player's
// own at the bottom (a spectator sees the first seat at the bottom), the running one lit in
// its mark's colour, tenths in the last ten seconds (clock.js formats). The rail is built
// when the seats change; the digits are updated in place on every tick (updateClocks).
// A room without a clock has no rail. The rail has a fixed width, so a running clock, a
// clock in its tenths or a clock that appears with the snapshot never moves the board.

import { cls, fill, h, text } from "../browser/dom.js";
import { piece } from "./pieces.js";

/** The players with a clock, top to bottom: the others first, the viewer (or X) last. */
export function clockOrder(view) {
  const timed = view.players.filter((p) => p.clock);
  const bottom = timed.find((p) => p.you) || timed[0];
  return [...timed.filter((p) => p !== bottom), bottom].filter(Boolean);
}

export function renderClocks(root, view) {
  const order = clockOrder(view);
  root.hidden = order.length === 0;
  fill(root, order.map((p, i) => h("div", {
    class: `big-clock mark-${p.mark}${p.you ? " you" : ""}`,
    dataset: { mark: p.mark, place: i === order.length - 1 ? "bottom" : "top" },
  },
    h("span", { class: "big-clock-who" },
      piece(p.mark),
      h("span", { class: "big-clock-name" }, p.seated ? p.name : "Open seat")),
    h("span", { class: "clock", role: "timer", dataset: { mark: p.mark } }))));
  updateClocks(root, view);
}

/** The digits and states of each clock. */
export function updateClocks(root, view) {
  for (const p of view.players) {
    const el = root.querySelector(`.clock[data-mark="${p.mark}"]`);
    if (!el || !p.clock) continue;
    text(el, p.clock.text);
    cls(el, "running", p.clock.running);
    cls(el, "low", p.clock.low);
    cls(el, "out", p.clock.out);
    cls(el.parentElement, "running", p.clock.running);
    const label = `${p.name || p.mark}'s clock (${p.mark}): ${p.clock.text}${p.clock.running ? ", running" : ""}`;
    if (el.getAttribute("aria-label") !== label) el.setAttribute("aria-label", label);
  }
}
