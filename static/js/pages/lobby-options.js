// The lobby form's room options: who to play (a person, or a bot and its level and
// side) and the time control. Fields, their show/hide logic, and reading them into the
// body of POST /api/rooms ({bot, bot_mark, time_control, rated, bots}); the server judges the values.
// The days are a correspondence game's: that long for each move (protocol.md, Clocks).

import { h } from "../browser/dom.js";

export const BOT_LEVELS = Object.freeze([
  { id: "random", label: "Random", hint: "plays any legal move" },
  { id: "easy", label: "Easy", hint: "sees one move ahead" },
  { id: "medium", label: "Medium", hint: "blocks and attacks" },
  { id: "hard", label: "Hard", hint: "searches deeply" },
  { id: "perfect", label: "Perfect", hint: "plays proven-best moves; a guess marked ? where no proof comes in time" },
]);

export const TIME_CONTROLS = Object.freeze([
  { id: "none", label: "None" },
  { id: "1+0", label: "1 + 0", tc: { initial: 60, increment: 0 } },
  { id: "3+2", label: "3 + 2", tc: { initial: 180, increment: 2 } },
  { id: "5+0", label: "5 + 0", tc: { initial: 300, increment: 0 } },
  { id: "10+5", label: "10 + 5", tc: { initial: 600, increment: 5 } },
  { id: "1d", label: "1 day", tc: { days: 1 } },
  { id: "2d", label: "2 days", tc: { days: 2 } },
  { id: "3d", label: "3 days", tc: { days: 3 } },
  { id: "7d", label: "7 days", tc: { days: 7 } },
  { id: "custom", label: "Other" },
]);

/** Server field names (422 `field`) → the form control to mark. */
export const OPTION_FIELDS = Object.freeze({
  bot: "bot_level",
  bot_mark: "bot_side",
  time_control: "clock",
  "time_control.days": "clock",
  "time_control.initial": "tc_minutes",
  "time_control.increment": "tc_increment",
});

export function opponentFieldset() {
  return h("fieldset", { class: "opponent" }, h("legend", {}, "Opponent"),
    h("div", { class: "pair" },
      h("label", { class: "radio" }, h("input", { type: "radio", name: "opponent", value: "human", checked: true }),
        h("span", {}, h("strong", {}, "A person"), h("small", {}, "invite someone, or quick play"))),
      h("label", { class: "radio" }, h("input", { type: "radio", name: "opponent", value: "bot" }),
        h("span", {}, h("strong", {}, "The computer"), h("small", {}, "a bot takes the other seat")))),
    h("div", { class: "field-row bot-fields" },
      h("label", { class: "field wide", dataset: { field: "bot" } },
        h("span", { class: "field-label" }, "Bot level"),
        h("select", { name: "bot_level" }, BOT_LEVELS.map((l) =>
          h("option", { value: l.id, selected: l.id === "medium" }, `${l.label} — ${l.hint}`)))),
      h("label", { class: "field", dataset: { field: "bot_mark" } },
        h("span", { class: "field-label" }, "You play"),
        h("select", { name: "bot_side" },
          h("option", { value: "O" }, "X (first)"),
          h("option", { value: "X" }, "O (second)")))));
}

export function clockFieldset() {
  return h("fieldset", { class: "clock-fields" }, h("legend", {}, "Time control"),
    h("div", { class: "chips tc-chips", role: "radiogroup", "aria-label": "Time control" },
      TIME_CONTROLS.map((t) => h("label", { class: "chip small-chip" },
        h("input", { type: "radio", name: "clock", value: t.id, checked: t.id === "none" }),
        h("span", { class: "chip-body" }, h("strong", {}, t.label))))),
    h("div", { class: "field-row tc-custom" },
      h("label", { class: "field", dataset: { field: "time_control.initial" } },
        h("span", { class: "field-label" }, "Minutes each"),
        h("input", { type: "number", name: "tc_minutes", value: 5, min: 0.25, max: 180, step: "any", inputmode: "decimal" })),
      h("label", { class: "field", dataset: { field: "time_control.increment" } },
        h("span", { class: "field-label" }, "Increment (s)"),
        h("input", { type: "number", name: "tc_increment", value: 3, min: 0, max: 60, step: 1, inputmode: "numeric" }))));
}

/** Show the bot's fields only against the computer, the custom clock only when chosen;
 *  quick play only against a person. */
export function syncOptions(form) {
  const el = form.elements;
  const bot = el.opponent.value === "bot";
  form.querySelector(".bot-fields").hidden = !bot;
  form.querySelector(".tc-custom").hidden = el.clock.value !== "custom";
  const quick = form.querySelector("[data-quick]");
  if (quick) quick.hidden = bot;
  const rated = form.querySelector('[data-field="rated"]');
  if (rated) { // a rating compares two people: never a game against a bot
    rated.hidden = bot;
    el.rated.disabled = bot;
  }
  const bots = form.querySelector('[data-field="bots"]');
  if (bots) { // a rated room with bot accounts seats bots only: not for its creator
    const off = bot || Boolean(el.rated && el.rated.checked);
    bots.hidden = off;
    el.bots.disabled = off;
  }
}

export function readTimeControl(el) {
  const choice = el.clock.value;
  if (choice === "custom") {
    const minutes = el.tc_minutes.value.trim() === "" ? el.tc_minutes.value : Number(el.tc_minutes.value);
    const increment = el.tc_increment.value.trim() === "" ? 0 : Number(el.tc_increment.value);
    return { initial: typeof minutes === "number" ? Math.round(minutes * 60 * 100) / 100 : minutes, increment };
  }
  const preset = TIME_CONTROLS.find((t) => t.id === choice);
  return preset && preset.tc ? { ...preset.tc } : null;
}

/** {bot?, bot_mark?, time_control?, rated?, bots?} for POST /api/rooms. */
export function readOptions(el) {
  const options = {};
  if (el.opponent.value === "bot") {
    options.bot = `bot:${el.bot_level.value}`;
    options.bot_mark = el.bot_side.value;
  }
  const tc = readTimeControl(el);
  if (tc) options.time_control = tc;
  if (el.rated && el.rated.checked && !el.rated.disabled) options.rated = true;
  if (el.bots && el.bots.checked && !el.bots.disabled) options.bots = true;
  return options;
}
