// The lobby's "Your turn" card: this browser's identity's correspondence games, kept up to
// date (a poll, and at once when the page comes back into view), with the time left counted
// down between answers. Any device holding the identity shows the same games.

import { getPlayerGames, serverNow } from "../net/api.js";
import { h } from "../browser/dom.js";
import { loadIdentity } from "../browser/storage.js";
import { renderTurns } from "../render/turns.js";

const POLL_MS = 5000;
const TICK_MS = 1000;

/** The card (hidden while there is nothing to show); it starts polling at once. */
export function turnsCard() {
  const root = h("section", { class: "card turns-card", "aria-labelledby": "turns-title", hidden: true });
  const state = { games: [], error: null };
  let inFlight = false;
  const draw = () => renderTurns(root, state, serverNow());
  async function poll() {
    const identity = loadIdentity();
    if (!identity || inFlight || document.visibilityState === "hidden") return;
    inFlight = true;
    try {
      state.games = (await getPlayerGames(identity.id, identity.secret)).games || [];
      state.error = null;
    } catch (err) {
      state.error = err.code === "bad_identity" ? null : err.message; // a stale identity: nothing to show
      if (err.code === "bad_identity") state.games = [];
    } finally {
      inFlight = false;
    }
    draw();
  }
  setInterval(poll, POLL_MS);
  setInterval(() => { if (state.games.length) draw(); }, TICK_MS);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") poll(); });
  poll();
  return root;
}
