// The invite page's question before taking a seat: the player's name, prefilled (the stored
// name, else a fresh guest name), checked as the server would (names.js) before joining.

import { fill, h } from "../browser/dom.js";
import { MAX_NAME, cleanName } from "../model/names.js";

/** Shows the form in `root`; `onName(name)` gets the cleaned name once it is usable. */
export function renderNameForm(root, { title, detail, value, onName }) {
  const input = h("input", {
    id: "join-name", name: "name", maxlength: MAX_NAME, autocomplete: "nickname",
    required: true, value, spellcheck: "false",
  });
  const error = h("p", { class: "field-problem", id: "join-name-problem", role: "alert", hidden: true });
  const form = h("form", { class: "name-form", novalidate: true },
    h("label", { class: "field", for: "join-name" },
      h("span", { class: "field-label" }, "Your name"), input),
    error,
    h("button", { type: "submit", class: "button primary" }, "Join the game"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = cleanName(input.value);
    if (!name) {
      error.hidden = false;
      error.textContent = "Type a name to show the other players.";
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", error.id);
      input.focus();
      return;
    }
    onName(name);
  });
  fill(root, h("h2", {}, title), detail ? h("p", { class: "name-detail" }, detail) : null, form);
  root.hidden = false;
  input.focus();
  input.select();
}
