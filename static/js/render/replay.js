// The replay scrubber: step through the server's move history, live or finished.
// Built once, then updated in place (so dragging the slider is never interrupted).

import { attr, cls, h, text } from "../browser/dom.js";
import { icon } from "./icons.js";

export function renderReplay(root, view, { onGo } = {}) {
  if (!root.firstChild) build(root, onGo);
  const { ply, total, live } = view;
  const $ = (name) => root.querySelector(`[data-part="${name}"]`);
  $("first").disabled = ply === 0;
  $("prev").disabled = ply === 0;
  $("next").disabled = live;
  $("last").disabled = live;
  const slider = $("slider");
  slider.max = String(total);
  if (document.activeElement !== slider || Number(slider.value) !== ply) slider.value = String(ply);
  slider.disabled = total === 0;
  attr(slider, "aria-valuetext", `move ${ply} of ${total}`);
  for (const name of ["first", "prev", "next", "last"]) $(name).dataset.target = target(name, ply, total);
  text($("where"), total === 0 ? "No moves yet" : live ? `Move ${total} · live` : `Move ${ply} of ${total}`);
  cls($("where"), "live", live && total > 0);
  $("back").hidden = live;
  root.dataset.live = live ? "true" : "false";
  root.dataset.ply = String(ply);
}

function target(name, ply, total) {
  return { first: 0, prev: Math.max(0, ply - 1), next: Math.min(total, ply + 1), last: "live" }[name];
}

function build(root, onGo) {
  const go = (raw) => onGo(raw === "live" ? null : Number(raw));
  const button = (name, label) => h("button", {
    type: "button", class: "icon-button", "aria-label": label, title: label,
    dataset: { part: name }, onclick: (e) => go(e.currentTarget.dataset.target),
  }, icon(name));
  root.append(
    h("div", { class: "replay-buttons" },
      button("first", "First move"),
      button("prev", "Previous move"),
      h("input", {
        type: "range", min: 0, max: 0, step: 1, value: 0, class: "scrubber",
        "aria-label": "Move to show", dataset: { part: "slider" },
        oninput: (e) => {
          const v = Number(e.target.value);
          onGo(v === Number(e.target.max) ? null : v);
        },
      }),
      button("next", "Next move"),
      button("last", "Latest move")),
    h("div", { class: "replay-where" },
      h("span", { class: "replay-pos", dataset: { part: "where" } }),
      h("button", {
        type: "button", class: "link-button", dataset: { part: "back" }, hidden: true,
        onclick: () => onGo(null),
      }, "Back to the live game")));
}
