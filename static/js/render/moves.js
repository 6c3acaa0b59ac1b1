// The move list: numbered rounds, one entry per move, the replayed one marked.
// Each move is a button that jumps the replay there.

import { fill, h } from "../browser/dom.js";

export function renderMoves(root, view, { onPick } = {}) {
  if (!view.moves.length) {
    fill(root, h("p", { class: "empty-note" }, "No moves yet."));
    return;
  }
  const per = view.players.length;
  const rounds = [];
  for (let i = 0; i < view.moves.length; i += per) rounds.push(view.moves.slice(i, i + per));
  const list = h("ol", { class: "move-list" }, rounds.map((round, r) =>
    h("li", { class: "round" },
      h("span", { class: "round-no", "aria-hidden": "true" }, `${r + 1}.`),
      round.map((m) => h("button", {
        type: "button",
        class: `move mark-${m.mark}${m.current ? " current" : ""}${m.unproven ? " unproven" : ""}`,
        "aria-label": `Move ${m.ply}, ${m.label}`,
        "aria-current": m.current ? "step" : null,
        title: m.unproven ? "Unproven: the bot found no proof in time and played its best guess" : null,
        dataset: { ply: m.ply },
        onclick: () => onPick && onPick(m.ply),
      }, m.unproven ? `${m.name}?` : m.name)))));
  // a CSSOM property, not a style attribute: the CSP (style-src 'self') refuses the latter
  list.style.setProperty("--per", per);
  const old = root.querySelector(".move-list");
  const atBottom = !old || root.scrollTop + root.clientHeight >= root.scrollHeight - 8;
  fill(root, list);
  const current = list.querySelector(".current");
  if (view.live && atBottom) root.scrollTop = root.scrollHeight;
  else if (current) current.scrollIntoView({ block: "nearest" });
}
