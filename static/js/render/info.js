// The "Game" card: room code, who can join, the rules, the clock, bots, how many watch.

import { fill, h } from "../dom.js";

export function renderInfo(root, view) {
  const row = (term, ...value) => [h("dt", {}, term), h("dd", {}, ...value)];
  fill(root,
    row("Room", h("code", {}, view.roomId)),
    row("Visibility", view.room.public ? "Public · listed in the lobby" : "Private · link only"),
    row("Rules", view.rulesText),
    row("Clock", view.timeControl || "No clock"),
    view.bots.length ? row("Bot", view.bots.join(", ")) : null,
    view.gameNumber > 1 ? row("Game", `${view.gameNumber} in this room`) : null,
    row("Spectators", String(view.spectators)));
}
