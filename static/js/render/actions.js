// Buttons for the available actions of the registry (model/actions.js).
// `flash` = {id, text} shows a short confirmation on the button that was just used;
// `confirming` = the id of an action with `confirm` that was clicked once: it shows its
// question with "yes" and "no" in place of the button; `busy` = ids waiting for an answer.

import { h } from "../browser/dom.js";

export function actionButtons(actions, { run, flash, confirming, busy, cancel } = {}) {
  return actions.map((a) => {
    if (a.confirm && confirming === a.id) {
      return h("div", { class: "confirm", role: "group", "aria-label": a.confirm.prompt, dataset: { action: a.id } },
        h("span", { class: "confirm-prompt" }, a.confirm.prompt),
        h("button", { type: "button", class: `button ${a.tone || ""}`.trim(), dataset: { confirm: "yes" }, onclick: () => run(a, true) }, a.confirm.yes),
        h("button", { type: "button", class: "button", dataset: { confirm: "no" }, onclick: () => cancel() }, a.confirm.no));
    }
    const flashed = Boolean(flash && flash.id === a.id);
    const waiting = Boolean(busy && busy.has(a.id));
    return h("button", {
      type: "button",
      class: `button${a.tone ? ` ${a.tone}` : ""}${flashed ? " flashed" : ""}`,
      dataset: { action: a.id },
      title: a.hint || null,
      "aria-label": a.aria || null,
      disabled: waiting,
      "aria-busy": waiting ? "true" : null,
      onclick: () => run(a, false),
    }, flashed ? flash.text : a.label);
  });
}
