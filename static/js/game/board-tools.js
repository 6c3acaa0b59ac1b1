// A large board on a phone (one layer, more than 9 rows or columns, phone width): the two
// switches under it (render/board-tools.js). Zoom draws the board at ZOOM times its width
// inside its unchanged box; Confirm moves (remembered in localStorage) makes a first tap on a
// playable cell select it and a second tap on it play it. The selected cell is kept here,
// for the board's input to ask (game/board-input.js); a desktop never shows the switches,
// so it never confirms.

import { announce } from "../browser/announce.js";
import { memo } from "../browser/dom.js";
import { loadPref, savePref } from "../browser/storage.js";
import { renderBoardTools } from "../render/board-tools.js";

const PHONE = "(max-width: 640px)"; // where a large board gets its tools (css/game.css)
const ZOOM = 2; // a zoomed board is this many times its width

/** The tools of the board in `el` (render/game.js's gameLayout); `view()` is the page's
 *  current view (model/view.js). */
export function createBoardTools(el, view) {
  const tools = { zoom: false, confirm: loadPref("confirm", false), selected: null };
  const phone = window.matchMedia(PHONE);
  const bigBoard = () => Boolean(view().rules) && (view().rules.layers || 1) === 1 &&
    Math.max(view().rules.rows, view().rules.cols) > 9;
  const toolsShown = () => view().ready && bigBoard() && phone.matches;
  const confirming = () => tools.confirm && toolsShown();

  function select(key) {
    tools.selected = key;
    for (const c of el.board.querySelectorAll(".cell.selected")) c.classList.remove("selected");
    const btn = key && el.board.querySelector(`[data-key="${key}"]`);
    if (btn) btn.classList.add("selected");
  }

  function setZoom(on) {
    const frame = el.boardFrame;
    if (on) frame.style.height = `${frame.getBoundingClientRect().height}px`; // the same box
    else frame.style.removeProperty("height");
    tools.zoom = on;
    frame.classList.toggle("zoomed", on);
    if (on) { // show the last move (or the centre) in the middle of the box
      const target = el.board.querySelector(".cell.last") || el.board.querySelector(".grid");
      const t = target.getBoundingClientRect();
      const f = frame.getBoundingClientRect();
      frame.scrollLeft += t.left + t.width / 2 - (f.left + f.width / 2);
      frame.scrollTop += t.top + t.height / 2 - (f.top + f.height / 2);
    }
    draw();
    announce(on ? "Board zoomed: drag to move it." : "Board shown whole.");
  }

  function draw() {
    el.tools.hidden = !toolsShown();
    if (el.tools.hidden && tools.zoom) setZoom(false);
    if (!confirming()) select(null);
    memo(el.tools, JSON.stringify([tools.zoom, tools.confirm, el.tools.hidden]), () =>
      renderBoardTools(el.tools, tools, {
        zoom: setZoom,
        confirm(on) {
          tools.confirm = on;
          savePref("confirm", on);
          draw();
          announce(on ? "Confirm moves on: tap a cell, then tap it again to play." : "Confirm moves off.");
        },
      }));
  }
  phone.addEventListener("change", draw);

  return {
    /** After each render of the page: the switches shown or hidden, and the selected cell
     *  marked again while it may still be played (a re-render draws the cells anew). */
    render() {
      el.boardFrame.style.setProperty("--zoom", ZOOM);
      draw();
      if (tools.selected && !(view().myTurn && view().live)) select(null);
      else select(tools.selected);
    },
    /** A tap on the playable cell `key`: true when it only selects it (Confirm moves' first
     *  tap), false when it plays. */
    selects(key) {
      if (!confirming() || tools.selected === key) return false;
      select(key);
      return true;
    },
    /** A click off the board's cells drops the selection, unless it was on the switches. */
    clickedAway(target) {
      if (tools.selected && !el.tools.contains(target)) select(null);
    },
    unselect: () => select(null),
  };
}
