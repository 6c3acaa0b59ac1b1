// The page's two attention switches, in the header: sound on/off and browser notifications
// for "your move" in a hidden tab (and, with `push`, once the page is closed too). Toggle buttons (aria-pressed); the label stays, the
// pressed state and the icon say on or off.

import { fill, h } from "../browser/dom.js";
import { icon } from "./icons.js";

/** state = attention.switches() and {push}; on = {sound(on), notify(on)} */
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
        : !state.notify ? "Notify me when it is my move in another tab"
          : state.push ? "A notification when it is your move, in another tab or with this page closed"
            : "A notification when it is your move in another tab",
      onclick: () => on.notify(!state.notify),
    }, icon(state.notify ? "bell" : "bell-off"), h("span", { class: "alert-label" }, "Notify")));
}
