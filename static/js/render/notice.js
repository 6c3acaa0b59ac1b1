// An error (or note) shown where it happened: the server's code as a headline and its
// own message underneath, with an optional button row.

import { fill, h } from "../browser/dom.js";
import { icon } from "./icons.js";

export function renderNotice(root, notice, { actions = [], onDismiss } = {}) {
  if (!notice) {
    root.hidden = true;
    root.replaceChildren();
    return;
  }
  root.hidden = false;
  root.dataset.tone = notice.tone || "error";
  root.dataset.code = notice.code || "";
  fill(root,
    h("div", { class: "notice-text" },
      h("strong", { class: "notice-title" }, notice.title),
      notice.message ? h("span", { class: "notice-message" }, notice.message) : null),
    actions.length ? h("div", { class: "notice-actions" }, actions) : null,
    onDismiss ? h("button", {
      type: "button", class: "icon-button notice-close", "aria-label": "Dismiss", onclick: onDismiss,
    }, icon("close")) : null);
}
