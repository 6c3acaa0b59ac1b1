// The "Game" card: room code, who can join, the clock, bots. The rules, the spectator count
// and the game number are shown once, in the page's head.

import { fill, h } from "../browser/dom.js";

export function renderInfo(root, view) {
  const row = (term, ...value) => [h("dt", {}, term), h("dd", {}, ...value)];
  fill(root,
    row("Room", h("code", {}, view.roomId)),
    row("Visibility", view.room.public ? "Public · listed in the lobby" : "Private · link only"),
    row("Clock", view.timeControl || "No clock"),
    view.rated ? row("Rated", view.rated) : null,
    view.bots.length ? row("Bot", view.bots.join(", ")) : null);
}
