// The connection pill in the header: what the socket is doing, in plain words.

import { attr, fill, h } from "../browser/dom.js";

export function connText(conn, now = Date.now()) {
  switch (conn.state) {
    case "open": return { tone: "ok", text: "Connected" };
    case "connecting": return { tone: "busy", text: conn.attempt ? "Reconnecting…" : "Connecting…" };
    case "waiting": {
      if (conn.offline) return { tone: "bad", text: "No network", retry: true };
      const secs = Math.max(0, Math.ceil((conn.retryAt - now) / 1000));
      return { tone: "bad", text: secs > 0 ? `Offline · retrying in ${secs}s` : "Offline · retrying…", retry: true };
    }
    case "stopped": return { tone: "bad", text: "Disconnected" };
    default: return { tone: "busy", text: "…" };
  }
}

export function renderConn(root, conn, { onRetry } = {}) {
  const { tone, text, retry } = connText(conn);
  root.hidden = false;
  root.dataset.tone = tone;
  root.dataset.state = conn.state;
  attr(root, "title", text);
  // Updated in place, never rebuilt: the countdown redraws every second, and a "Retry now"
  // replaced between a press and its release would swallow the click.
  let label = root.querySelector(".conn-text");
  if (!label) {
    label = h("span", { class: "conn-text" });
    fill(root, h("span", { class: "dot", "aria-hidden": "true" }), label);
  }
  if (label.textContent !== text) label.textContent = text;
  let button = root.querySelector("button.link-button");
  if (retry && onRetry) {
    if (!button) {
      button = h("button", { type: "button", class: "link-button" }, "Retry now");
      root.append(button);
    }
    button.onclick = onRetry;
  } else if (button) {
    button.remove();
  }
}
