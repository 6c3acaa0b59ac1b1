// The board: state → DOM, updated in place so focus, hover and the drop animation of a
// new piece survive re-renders. Layout (which cells exist) is rebuilt only when the
// board's shape changes; each render then sets every cell from the view.
//
// view = {shapeKey, rules, layers: [{layer, label, rows: [[cell]]}], interactive, guessing, myTurn,
//         me, finished, hasLine, animate, busy, focusKey}
// cell = {key, row, col, layer, mark, last, win, winStep, pending, playable, premove, label,
//         guessed, guessable, share}: a spectator's open guess (dashed, never a piece) and, after a
//         move, the share of the crowd that guessed the cell
// The cells of a winning line celebrate (board.css): one after the other along the line
// (--win-step), once; not at all when the user prefers reduced motion.
// A cell that cannot be played now says so (aria-disabled, no pointer cursor); clicks on
// it are still heard, so the page can answer them (a premove, "that cell is taken").

import { attr, cls, h } from "../browser/dom.js";
import { colLetter } from "../model/rules.js";
import { piece } from "./pieces.js";

export function renderBoard(root, view) {
  if (root.dataset.shape !== view.shapeKey) build(root, view);
  cls(root, "interactive", view.interactive);
  cls(root, "guessing", Boolean(view.guessing));
  cls(root, "my-turn", view.myTurn);
  cls(root, "finished", view.finished);
  cls(root, "has-line", view.hasLine);
  cls(root, "gravity", Boolean(view.rules.gravity));
  cls(root, "analysing", Boolean(view.analysis));
  attr(root, "aria-busy", view.busy ? "true" : null);
  const focusWasInside = root.contains(document.activeElement);
  for (const layer of view.layers) {
    for (const row of layer.rows) for (const cell of row) updateCell(root, cell, view);
  }
  const target = root.querySelector(`[data-key="${view.focusKey}"]`);
  if (focusWasInside && target && document.activeElement !== target) target.focus({ preventScroll: true });
}

function build(root, view) {
  const { rules } = view;
  root.replaceChildren();
  root.dataset.shape = view.shapeKey;
  root.style.setProperty("--rows", rules.rows);
  root.style.setProperty("--cols", rules.cols);
  root.classList.toggle("three-d", view.layers.length > 1);
  root.classList.toggle("big", Math.max(rules.rows, rules.cols) > 9);
  // 3D: the top layer is drawn first, so the stack reads like the cube seen from above.
  const layers = [...view.layers].sort((a, b) => b.layer - a.layer);
  for (const layer of layers) {
    const grid = h("div", {
      class: "grid", role: "grid", "aria-label": layer.label,
      "aria-rowcount": rules.rows, "aria-colcount": rules.cols,
    });
    for (const row of layer.rows) {
      const rowEl = h("div", { class: "grid-row", role: "row" });
      for (const cell of row) {
        rowEl.append(h("button", {
          type: "button", class: "cell", role: "gridcell", tabindex: "-1",
          dataset: { key: cell.key, row: cell.row, col: cell.col, layer: cell.layer },
        }));
      }
      grid.append(rowEl);
    }
    const cols = h("div", { class: "coords coords-cols", "aria-hidden": "true" },
      Array.from({ length: rules.cols }, (_, c) => h("span", {}, colLetter(c))));
    const rows = h("div", { class: "coords coords-rows", "aria-hidden": "true" },
      Array.from({ length: rules.rows }, (_, r) => h("span", {}, r + 1)));
    const caption = view.layers.length > 1
      ? h("div", { class: "layer-caption", "aria-hidden": "true" }, layer.label) : null;
    root.append(h("div", { class: "layer", dataset: { layer: layer.layer } },
      caption, h("div", { class: "layer-body" }, h("span", { class: "coords-corner" }), cols, rows, grid)));
  }
}

function updateCell(root, cell, view) {
  const el = root.querySelector(`[data-key="${cell.key}"]`);
  if (!el) return;
  attr(el, "aria-label", cell.label);
  attr(el, "aria-disabled", cell.playable || cell.guessable ? null : "true");
  cls(el, "playable", cell.playable);
  attr(el, "tabindex", cell.key === view.focusKey ? "0" : "-1");
  cls(el, "last", cell.last);
  cls(el, "win", cell.win);
  cls(el, "celebrate", cell.win);
  if (cell.win) el.style.setProperty("--win-step", cell.winStep);
  else el.style.removeProperty("--win-step");
  cls(el, "pending", cell.pending);
  cls(el, "filled", Boolean(cell.mark));
  if (cell.mark) cls(el, "preview", false);
  const current = el.querySelector(".piece:not(.ghost):not(.queued)");
  const currentMark = current ? current.dataset.mark : null;
  if ((cell.mark || null) !== currentMark) {
    el.replaceChildren();
    if (cell.mark) {
      // a move drawn on the click (pending) pops in at once; its confirmation redraws nothing
      const animate = (cell.last || cell.pending) && view.animate;
      const p = piece(cell.mark, animate ? (view.rules.gravity ? "drop" : "pop") : "");
      p.dataset.mark = cell.mark;
      if (animate && view.rules.gravity) p.style.setProperty("--fall", view.rules.layers > 1 ? 1 : cell.row + 1);
      el.append(p);
    }
  }
  setPremove(el, cell.premove ? view.me : null);
  setEval(el, cell.evaluation);
  cls(el, "guessed", Boolean(cell.guessed));
  setTag(el, "guess-share", cell.share);
}

/** A small tag in the cell (`name` its class) showing `value`, or none. */
function setTag(el, name, value) {
  let tag = el.querySelector(`.${name}`);
  if (!value) {
    if (tag) tag.remove();
    return;
  }
  if (!tag) {
    tag = h("span", { class: name, "aria-hidden": "true" });
    el.append(tag);
  }
  if (tag.textContent !== value) tag.textContent = value;
}

/** The faint, outlined piece of a queued premove (a ghost that previews do not clear). */
function setPremove(el, mark) {
  cls(el, "premove", Boolean(mark));
  const ghost = el.querySelector(".piece.queued");
  if (ghost && ghost.dataset.mark === (mark || "")) return;
  if (ghost) ghost.remove();
  if (!mark) return;
  const p = piece(mark, "queued");
  p.dataset.mark = mark;
  el.append(p);
}

/** The analysis value of an empty cell ("W3", "D", "L5", "+4"), or none. */
function setEval(el, evaluation) {
  let tag = el.querySelector(".eval");
  if (!evaluation) {
    if (tag) tag.remove();
    return;
  }
  if (!tag) {
    tag = h("span", { class: "eval", "aria-hidden": "true" });
    el.append(tag);
  }
  if (tag.textContent !== evaluation.text) tag.textContent = evaluation.text;
  tag.dataset.tone = evaluation.tone;
}

/** Show a faint `mark` where a move at `key` would go (hover/focus preview only). */
export function showPreview(root, key, mark) {
  clearPreview(root);
  const el = root.querySelector(`[data-key="${key}"]`);
  if (!el || el.classList.contains("filled")) return;
  el.classList.add("preview");
  el.append(piece(mark, "ghost"));
}

export function clearPreview(root) {
  for (const el of root.querySelectorAll(".cell.preview")) {
    el.classList.remove("preview");
    for (const g of el.querySelectorAll(".ghost")) g.remove();
  }
}
