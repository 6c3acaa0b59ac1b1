// The page's two attention switches, in the header: sound on/off and browser notifications
// for "your move" in a hidden tab. Toggle buttons (aria-pressed); the label stays, the
// pressed state and the icon say on or off.

import { fill, h } from "../browser/dom.js";
import { icon } from "./icons.js";

/** state = attention.switches(); on = {sound(on), notify(on)} */
export function renderAlerts(root, state, on) {
  const blocked = state.notifyState === "denied";
  fill(root,
    h("button", {
      type: "button", class: "alert-switch", "aria-pressed": String(state.sound), dataset: { switch: "sound" },
      title: state.sound ? "Sounds are on" : "Sounds are off",
      onclick: () => on.sound(!state.sound),
    }, icon(state.sound ? "sound" : "mute"), h("span", { class: "alert-label" }, "Sound")),
    state.notifyState === "unsupported" ? null : h("button", {
      type: "button", class: "alert-switch", "aria-pressed": String(state.notify), dataset: { switch: "notify" },
      title: blocked ? "This browser blocks notifications from this site"
        : state.notify ? "A notification when it is your move in another tab" : "Notify me when it is my move in another tab",
      onclick: () => on.notify(!state.notify),
    }, icon(state.notify ? "bell" : "bell-off"), h("span", { class: "alert-label" }, "Notify")));
}
