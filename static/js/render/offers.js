// The strip above the board: what needs an answer now (a draw offer, a takeback request,
// an opponent gone long enough to claim), what we wait for, the first-move limit, and the
// server's refusal of a command sent from here.

import { fill, h } from "../browser/dom.js";
import { renderNotice } from "./notice.js";

/** prompts = [{id, tone, text, actions: [action ids]}]; buttons(ids) → button nodes. */
export function renderOffers(root, prompts, { buttons, error, onDismiss }) {
  root.hidden = prompts.length === 0 && !error;
  const errorBox = h("div", { class: "notice", hidden: true, role: "alert" });
  renderNotice(errorBox, error, { onDismiss });
  fill(root,
    prompts.map((p) => {
      const row = buttons(p.actions || []);
      return h("div", { class: "prompt", dataset: { prompt: p.id, tone: p.tone } },
        h("span", { class: "prompt-text" }, p.text),
        row.length ? h("span", { class: "prompt-actions" }, row) : null);
    }),
    error ? errorBox : null);
}
