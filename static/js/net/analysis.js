// The analysis toggle's networking: while it is on, the position on the board (live or
// replayed) is sent to POST /api/analysis once; a newer position cancels the older
// request. The answer (or the server's error) goes into the page state as
// `analysis = {on, key, status: "loading" | "ready" | "error", result, error}`.

import { analyse } from "./api.js";
import { errorTitle } from "./protocol.js";

const BUSY_RETRY_MS = 1000;

export function createAnalysis(store) {
  let controller = null;
  let retry = null;

  const set = (change) => store.update((s) => ({ ...s, analysis: { ...(s.analysis || {}), ...change } }));

  function toggle(on) {
    if (!on && controller) controller.abort();
    set({ on, key: on ? null : (store.get().analysis || {}).key });
  }

  /** Called after every render with the view's analysis part. */
  function refresh(a) {
    if (!a || !a.on) return;
    const current = store.get().analysis || {};
    if (current.key === a.key) return; // asked (or answered) for this position already
    if (controller) controller.abort();
    clearTimeout(retry);
    const mine = new AbortController();
    controller = mine;
    set({ key: a.key, status: "loading", result: null, error: null });
    analyse(a.request.rules, a.request.board, mine.signal).then(
      (result) => {
        if (controller === mine) set({ status: "ready", result });
      },
      (err) => {
        if (controller !== mine || (err && err.name === "AbortError")) return;
        if (err.status === 429) { // every analysis slot is taken: ask again shortly
          retry = setTimeout(() => { if (controller === mine) set({ key: null }); }, BUSY_RETRY_MS);
          return;
        }
        set({ status: "error", error: { code: err.code, title: errorTitle(err.code), message: err.message } });
      },
    );
  }

  return { toggle, refresh };
}
