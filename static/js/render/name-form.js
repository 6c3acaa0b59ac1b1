// The invite page's card, drawn over the board before taking a seat: who invites, the game,
// its rules and clock, the seat offered, and the player's name, prefilled (the stored name,
// else a fresh guest name) and checked as the server would (names.js) before joining.

import { fill, h } from "../browser/dom.js";
import { MAX_NAME, cleanName } from "../model/names.js";

/** Shows the card in `root`: `from` (who invites, or null), `title` (the game), `facts`
 *  ([term, value] lines), `mark` (the seat offered); `onName(name)` gets the cleaned name
 *  once it is usable. */
export function renderNameForm(root, { from, title, facts = [], mark, value, onName }) {
  const input = h("input", {
    id: "join-name", name: "name", maxlength: MAX_NAME, autocomplete: "nickname",
    required: true, value, spellcheck: "false",
  });
  const error = h("p", { class: "field-problem", id: "join-name-problem", role: "alert", hidden: true });
  const form = h("form", { class: "name-form", novalidate: true },
    h("label", { class: "field", for: "join-name" },
      h("span", { class: "field-label" }, "Your name"), input),
    error,
    h("button", { type: "submit", class: "button primary big join-button" },
      mark ? `Join as ${mark}` : "Join the game"));
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
  fill(root,
    h("h2", {},
      h("span", { class: "invite-from" }, from ? `${from} invites you to play ` : "You are invited to play "),
      h("span", { class: "invite-game" }, title)),
    facts.length
      ? h("dl", { class: "invite-facts" }, facts.map(([term, text]) => h("div", {}, h("dt", {}, term), h("dd", {}, text))))
      : null,
    form);
  root.hidden = false;
  input.focus();
  input.select();
}
