// Buttons for the available actions of the registry (actions.js).
// `flash` = {id, text} shows a short confirmation on the button that was just used.

import { h } from "../dom.js";

export function actionButtons(actions, { run, flash } = {}) {
  return actions.map((a) => {
    const flashed = Boolean(flash && flash.id === a.id);
    return h("button", {
      type: "button",
      class: `button${a.tone ? ` ${a.tone}` : ""}${flashed ? " flashed" : ""}`,
      dataset: { action: a.id },
      onclick: () => run(a),
    }, flashed ? flash.text : a.label);
  });
}
