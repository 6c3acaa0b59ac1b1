// The invite card shown over the board while seats are free: the link to send and the room
// code.

import { fill, h } from "../browser/dom.js";

export function renderInvite(root, view, link, buttons) {
  if (view.status !== "waiting") {
    root.hidden = true;
    root.replaceChildren();
    return;
  }
  root.hidden = false;
  const mine = Boolean(view.me);
  fill(root,
    h("h2", {}, mine ? "Invite someone to play" : "A seat is free"),
    h("p", { class: "hint" }, mine ? "The game starts when they open it." : "Whoever opens it takes the seat."),
    h("div", { class: "share-row" },
      h("input", {
        readonly: true, value: link, "aria-label": "Invite link",
        class: "invite-link", onfocus: (e) => e.target.select(),
      }),
      buttons),
    h("p", { class: "room-code" }, "or give them the room code ", h("code", {}, view.roomId)));
}
