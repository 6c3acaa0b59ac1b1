// The tools of a large board on a phone (board.css's `.big`, e.g. 15x15 on a 390-px
// screen): Zoom shows the board at twice its width inside its own box, scrolled with one
// finger (the page's pinch-zoom works as well), and Confirm moves makes the first tap
// select a cell and a second tap on it play (a mis-tap costs nothing). Both are toggle
// buttons (aria-pressed); the page keeps Confirm in localStorage. The row is shown only at
// phone width (css/game.css), so a desktop never confirms.

import { fill, h } from "../browser/dom.js";
import { icon } from "./icons.js";

/** state = {zoom, confirm}; on = {zoom(on), confirm(on)} */
export function renderBoardTools(root, state, on) {
  fill(root,
    h("button", {
      type: "button", class: "tool-switch", "aria-pressed": String(state.zoom), dataset: { tool: "zoom" },
      onclick: () => on.zoom(!state.zoom),
    }, icon("zoom"), "Zoom"),
    h("button", {
      type: "button", class: "tool-switch", "aria-pressed": String(state.confirm), dataset: { tool: "confirm" },
      onclick: () => on.confirm(!state.confirm),
    }, icon("check"), "Confirm moves"));
}
