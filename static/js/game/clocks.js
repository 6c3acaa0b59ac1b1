// Clocks and grace countdowns between the server's events: the display counts down from
// the server's deadlines (model/clock.js; the server alone decides when time is up), so the
// page renders again four times a second while one runs (lag under a quarter second), ten
// times in a clock's last ten seconds (`fastTick`, tenths shown), and not at all otherwise.

const POLL_MS = 100;
const TICK_MS = 240; // a render at most this often, unless a clock shows tenths

/** Keeps the clocks of `store`'s page going; `view()` is the page's current view
 *  (model/view.js: `ticking`, `fastTick`). */
export function tickClocks(store, view) {
  let lastTick = 0;
  setInterval(() => {
    const now = Date.now();
    if (!view().ticking || (now - lastTick < TICK_MS && !view().fastTick)) return;
    lastTick = now;
    store.update({ now });
  }, POLL_MS);
}
