// The result banner of a finished game (tone: win, loss, draw, neutral), with the
// rematch votes and the buttons for what comes next (Rematch first: one click).

import { fill, h } from "../browser/dom.js";
import { icon } from "./icons.js";

const ICON = { win: "trophy", loss: "flag", draw: "handshake", neutral: "flag" };

export function renderBanner(root, view, { actions = [] } = {}) {
  if (!view.result) {
    root.hidden = true;
    root.replaceChildren();
    delete root.dataset.tone;
    return;
  }
  root.hidden = false;
  root.dataset.tone = view.result.tone;
  fill(root,
    h("span", { class: "banner-icon", "aria-hidden": "true" }, icon(ICON[view.result.tone] || "flag")),
    h("div", { class: "banner-text" },
      h("strong", { class: "banner-title" }, view.result.title),
      h("span", { class: "banner-detail" }, view.result.detail),
      view.rematchNote ? h("span", { class: "banner-note", role: "status" }, view.rematchNote) : null,
      view.ratingNote ? h("span", { class: "banner-note rating-note" }, view.ratingNote) : null),
    actions.length ? h("div", { class: "banner-actions" }, actions) : null);
}
