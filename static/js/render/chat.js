// The chat box: the lines of this viewer's audience as the server sent them (players see
// the players' chat, spectators the spectators'), and a form to add one. The list is
// appended to in place, so reading and typing are never interrupted.

import { fill, h, text } from "../browser/dom.js";

const MAX = 200;

function time(at) {
  if (typeof at !== "number") return "";
  const d = new Date(at * 1000);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

function lineNode(l) {
  const mark = l.from.mark;
  return h("li", { class: `chat-line${l.mine ? " mine" : ""}`, dataset: { role: l.from.role } },
    h("span", { class: `chat-from${mark ? ` mark-${mark}` : ""}` }, l.from.name, mark ? ` (${mark})` : ""),
    h("span", { class: "chat-text" }, l.text),
    h("time", { class: "chat-time" }, time(l.at)));
}

/** Build once; `onSend(text)` sends a line (the session clears the error on its ack). */
export function buildChat(root, { onSend }) {
  const list = h("ol", { class: "chat-lines", role: "log", "aria-live": "polite", "aria-label": "Chat messages" });
  const input = h("input", {
    name: "chat", maxlength: MAX, autocomplete: "off", placeholder: "Say something…",
    "aria-label": "Chat message", enterkeyhint: "send",
  });
  const error = h("p", { class: "chat-error", role: "alert", hidden: true });
  const form = h("form", { class: "chat-form", novalidate: true },
    input, h("button", { type: "submit", class: "button small" }, "Send"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (!value) return;
    if (onSend(value)) input.value = "";
  });
  fill(root,
    h("div", { class: "chat-head" }, h("h2", { dataset: { part: "title" } }), h("p", { class: "hint", dataset: { part: "hint" } })),
    list, h("p", { class: "empty-note chat-empty", dataset: { part: "empty" } }, "No messages yet."), error, form);
  root.__chat = { list, input, error, form, shown: 0 };
}

export function renderChat(root, chat) {
  const $ = root.__chat;
  text(root.querySelector('[data-part="title"]'), chat.title);
  text(root.querySelector('[data-part="hint"]'), chat.hint);
  root.dataset.channel = chat.channel;
  const atBottom = $.list.scrollTop + $.list.clientHeight >= $.list.scrollHeight - 8;
  for (const l of chat.lines) if (l.seq > $.shown) $.list.append(lineNode(l)); // new lines only
  while ($.list.children.length > chat.lines.length) $.list.firstChild.remove();
  $.shown = chat.lines.length ? chat.lines[chat.lines.length - 1].seq : $.shown;
  if (atBottom) $.list.scrollTop = $.list.scrollHeight;
  root.querySelector('[data-part="empty"]').hidden = chat.lines.length > 0;
  $.list.hidden = chat.lines.length === 0;
  $.error.hidden = !chat.error;
  if (chat.error) {
    fill($.error, h("strong", {}, `${chat.error.title}: `), chat.error.message);
    if (!$.input.value && chat.error.text) $.input.value = chat.error.text;
  }
  $.input.disabled = !chat.enabled;
}
