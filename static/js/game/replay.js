// Stepping through the moves already played (a replayed position is drawn from the move
// history: model/view.js): the replay bar and the move list (render/replay.js, moves.js),
// the left and right arrows, Home and End when nothing else wants them (as on lichess), and
// the analysis card's "Step back to see the values" (render/analysis.js), one move before
// the board shown.

import { announce } from "../browser/announce.js";
import { STEP_BACK_EVENT } from "../model/evaluation.js";

/** Replay on the page in `el` (render/game.js's gameLayout); `view()` is the page's current
 *  view. Returns goTo(ply): that ply shown, or the live position for null or the last one. */
export function createReplay({ el, store, view }) {
  function goTo(ply) {
    const total = store.get().room ? store.get().room.moves.length : 0;
    store.update({ replay: ply === null || ply >= total ? null : Math.max(0, ply) });
  }

  el.page.addEventListener(STEP_BACK_EVENT, () => {
    const s = store.get();
    const total = s.room ? s.room.moves.length : 0;
    goTo((s.replay ?? total) - 1);
    announce("One move back: the analysis shows the values here.");
  });

  document.addEventListener("keydown", (event) => {
    const t = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (t && t.closest && (t.closest("input, textarea, select, .board"))) return;
    const v = view();
    if (!v.ready) return;
    const moves = { ArrowLeft: v.ply - 1, ArrowRight: v.ply + 1, Home: 0, End: null };
    if (!(event.key in moves)) return;
    event.preventDefault();
    goTo(moves[event.key]);
  });

  return goTo;
}
