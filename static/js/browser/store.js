// A tiny observable value: the page's whole state in one object, replaced (never
// mutated) on every change; subscribers re-render from it.

export function createStore(initial) {
  let state = initial;
  const listeners = new Set();
  let scheduled = false;

  function notify() {
    scheduled = false;
    for (const listener of listeners) listener(state);
  }

  return {
    get: () => state,
    /** update(fn) or update(partial): shallow-merges a partial, or replaces with fn(state). */
    update(change) {
      const next = typeof change === "function" ? change(state) : { ...state, ...change };
      if (next === state) return;
      state = next;
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(notify); // many changes in one task render once
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
