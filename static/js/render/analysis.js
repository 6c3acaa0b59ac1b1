// The analysis card: a switch that shows perfect-play values on the empty cells, a
// legend, a one-line summary, and the server's refusal where it happened. Players see
// why it is locked while their game runs (so it cannot help them play). On a finished
// board nothing is left to weigh, so the card offers to step the replay one move back,
// where the values are: the button sends STEP_BACK_EVENT up to the page (game/replay.js).

import { fill, h } from "../browser/dom.js";
import { STEP_BACK_EVENT, nothingToShow } from "../model/evaluation.js";
import { renderNotice } from "./notice.js";

export function renderAnalysis(root, a, { onToggle }) {
  root.hidden = !a.allowed && !a.playerLocked;
  if (root.hidden) { root.replaceChildren(); return; }
  if (a.playerLocked) {
    fill(root,
      h("p", { class: "hint locked" }, h("strong", {}, "Analysis"),
        " opens when the game is over, so it cannot help anyone play."));
    return;
  }
  const errorBox = h("div", { class: "notice", hidden: true, role: "alert" });
  renderNotice(errorBox, a.error);
  fill(root,
    h("div", { class: "analysis-head" },
      h("h2", { id: "analysis-title" }, "Analysis"),
      h("button", {
        type: "button", role: "switch", class: "switch", "aria-checked": a.on ? "true" : "false",
        "aria-labelledby": "analysis-title", onclick: () => onToggle(!a.on),
      }, h("span", { class: "switch-knob", "aria-hidden": "true" }))),
    a.on ? h("p", { class: "legend", "aria-label": "Legend" },
      h("span", { class: "eval-chip tone-win" }, "W3"), " wins, the game ends 3 moves from now · ",
      h("span", { class: "eval-chip tone-draw" }, "D"), " draw · ",
      h("span", { class: "eval-chip tone-loss" }, "L5"), " loses · ",
      h("span", { class: "eval-chip tone-unknown" }, "+4"), " unproven estimate. For the side to move.") : 
      h("p", { class: "hint" }, "Shows what each empty cell is worth with perfect play from here."),
    a.on && a.loading ? h("p", { class: "analysis-status", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }), "Analysing…") : null,
    a.on && a.summary ? h("p", { class: "analysis-status", role: "status" }, a.summary) : null,
    nothingToShow(a) ? h("p", { class: "analysis-step" },
      h("button", {
        type: "button", class: "button small step-back",
        onclick: (event) => event.currentTarget.dispatchEvent(new CustomEvent(STEP_BACK_EVENT, { bubbles: true })),
      }, "Step back to see the values")) : null,
    a.error ? errorBox : null);
}
