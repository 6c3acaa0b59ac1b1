// The connection pill in the header: what the socket is doing, in plain words.

import { attr, fill, h } from "../dom.js";

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
  fill(root,
    h("span", { class: "dot", "aria-hidden": "true" }),
    h("span", { class: "conn-text" }, text),
    retry && onRetry ? h("button", { type: "button", class: "link-button", onclick: onRetry }, "Retry now") : null);
}
