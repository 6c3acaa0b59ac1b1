// The result banner of a finished game (tone: win, loss, draw, neutral).

import { fill, h } from "../dom.js";

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
    h("div", { class: "banner-text" },
      h("strong", { class: "banner-title" }, view.result.title),
      h("span", { class: "banner-detail" }, view.result.detail)),
    actions.length ? h("div", { class: "banner-actions" }, actions) : null);
}
