// The "Game" card: room code, who can join, the rules, how many watch.

import { fill, h } from "../dom.js";

export function renderInfo(root, view) {
  const row = (term, ...value) => [h("dt", {}, term), h("dd", {}, ...value)];
  fill(root,
    row("Room", h("code", {}, view.roomId)),
    row("Visibility", view.room.public ? "Public · listed in the lobby" : "Private · link only"),
    row("Rules", view.rulesText),
    row("Spectators", String(view.spectators)));
}
