// The connection as the board shows it: while the line is down (the socket dropped, the
// browser went offline, or the seat is being resumed) a veil and "Reconnecting…" cover the
// board, with the move that waits to be sent; "Back" for a moment once the server has the
// seat again. The board stays clickable underneath (a move made now waits for the line).
//
// view.line = {down, back, queued, offline, first}

import { fill, h } from "../browser/dom.js";

export function renderLine(frame, overlay, line) {
  const state = line.down ? "down" : line.back ? "back" : "up";
  frame.dataset.line = state;
  overlay.hidden = state === "up";
  if (state === "up") {
    overlay.replaceChildren();
    return;
  }
  if (state === "back") {
    fill(overlay, h("strong", { class: "line-title" }, "Back"));
    return;
  }
  fill(overlay,
    h("span", { class: "spinner", "aria-hidden": "true" }),
    h("strong", { class: "line-title" }, line.first ? "Connecting…" : "Reconnecting…"),
    line.queued ? h("span", { class: "line-detail" }, `${line.queued} is sent when the connection is back`)
      : line.offline ? h("span", { class: "line-detail" }, "This device is offline") : null);
}
