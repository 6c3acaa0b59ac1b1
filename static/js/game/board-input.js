// The board's input. A click is judged here, with the rules the page has
// (model/move-check.js): a move is drawn at once and sent, a click out of turn queues a
// premove, a blocked cell is answered at once; only a move ever reaches the server
// (net/session.js predicts it, and rolls it back if the server refuses). A click off the
// board's cells, or Escape, cancels a premove (as on lichess). Also: the preview of the
// own mark on the cell under the pointer or the keyboard's focus, and the arrow keys from
// cell to cell.

import { announce } from "../browser/announce.js";
import { cellKey, landing } from "../model/board.js";
import { nextCell } from "../model/keyboard.js";
import { judgeClick } from "../model/move-check.js";
import { cellName } from "../model/rules.js";
import { clearPreview, showPreview } from "../render/board.js";

/** Input on the board in `el` (render/game.js's gameLayout) for `session`; `view()` is the
 *  page's current view (model/view.js), `tools` the phone's board tools
 *  (game/board-tools.js), which may make a first tap only select its cell. */
export function createBoardInput({ el, store, session, tools, view }) {
  let hovered = null; // the cell under the pointer or keyboard focus, for the preview

  function cellOf(target) {
    const btn = target && target.closest ? target.closest(".cell") : null;
    if (!btn || !el.board.contains(btn)) return null;
    const { row, col, layer } = btn.dataset;
    return { row: Number(row), col: Number(col), layer: Number(layer) };
  }

  function previewTarget(cell) {
    if (!cell || !view().myTurn) return null;
    return landing(view().position, view().rules, cell);
  }

  function refreshPreview() {
    const target = previewTarget(hovered);
    if (target) showPreview(el.board, cellKey(target), view().me);
    else clearPreview(el.board);
  }

  el.board.addEventListener("click", (event) => {
    const cell = cellOf(event.target);
    if (!cell) return;
    store.update({ focus: cell });
    const v = view();
    if (v.crowd && v.crowd.guessing) { // a spectator's click guesses the next move
      const target = landing(v.position, v.rules, cell);
      if (target) {
        session.guess(target);
        announce(`Your guess: ${cellName(target, v.rules)}. You may change it until the move is played.`);
      }
      return;
    }
    if (!v.interactive) return;
    const s = store.get();
    const verdict = judgeClick({
      room: s.room, me: v.me, live: v.live, position: s.room.position,
      pending: s.pending, premove: s.premove,
    }, cell);
    if (verdict.kind === "move" && tools.selects(cellKey(verdict.target))) {
      // the first tap selects; a second on it plays
      announce(`${cellName(verdict.target, v.rules)} selected: tap it again to play.`);
    } else if (verdict.kind === "move") {
      tools.unselect();
      clearPreview(el.board);
      session.play(verdict.cell, verdict.target);
    } else if (verdict.kind === "premove") {
      session.premove(verdict.cell);
      announce(`Premove ${cellName(verdict.target, v.rules)}: played when it is your turn.`);
    } else if (verdict.kind === "cancel") {
      session.premove(null);
      announce("Premove cancelled.");
    } else if (verdict.kind === "refuse") {
      const { code, title, message, tone } = verdict;
      session.premove(null);
      store.update({ moveError: { code, title, message, tone } });
      announce(`${title}. ${message}`);
    }
  });
  // A click off the cells also drops a selected cell waiting for its confirming tap.
  document.addEventListener("click", (event) => {
    if (cellOf(event.target)) return;
    if (store.get().premove) session.premove(null);
    tools.clickedAway(event.target);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && store.get().premove) session.premove(null);
  });
  el.board.addEventListener("pointerover", (event) => {
    hovered = cellOf(event.target);
    refreshPreview();
  });
  el.board.addEventListener("pointerleave", () => {
    hovered = null;
    refreshPreview();
  });
  el.board.addEventListener("focusin", (event) => {
    const cell = cellOf(event.target);
    if (!cell) return;
    hovered = cell;
    const f = store.get().focus;
    if (!f || cellKey(f) !== cellKey(cell)) store.update({ focus: cell });
    refreshPreview();
  });
  el.board.addEventListener("focusout", (event) => {
    if (!el.board.contains(event.relatedTarget)) {
      hovered = null;
      refreshPreview();
    }
  });
  el.board.addEventListener("keydown", (event) => {
    const cell = cellOf(event.target);
    if (!cell || !view().rules) return;
    const next = nextCell(event.key, cell, view().rules);
    if (!next) return;
    event.preventDefault();
    store.update({ focus: next });
    const btn = el.board.querySelector(`[data-key="${cellKey(next)}"]`);
    if (btn) btn.focus();
  });

  return {
    /** After each render: the preview drawn again on the new cells (or taken away). */
    refresh: refreshPreview,
  };
}
