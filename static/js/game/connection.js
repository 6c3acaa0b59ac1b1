// The game page's line to its room. The session it opens (net/session.js, over one
// reconnecting socket) makes a seat-taking join wait first for the player's guest identity
// (net/identity.js: made once, by the first seat). While the page lives: "Reconnecting…"
// covers the board while the line is down and "Back" shows for a moment once it returns
// (render/line.js, from the state's `lineBack`); closing the tab leaves the seat on purpose
// (the opponent may claim after the short leave grace) and a page back from the browser's
// back-forward cache starts the session again; the header's "retrying in Ns" counts down.

import { announce } from "../browser/announce.js";
import { loadName, loadSeat } from "../browser/storage.js";
import { lineDown } from "../model/view.js";
import { ensureIdentity } from "../net/identity.js";
import { createSession } from "../net/session.js";
import { renderConn } from "../render/conn.js";

const BACK_MS = 2000; // how long "Back" stays on the board after the line returns
const COUNTDOWN_MS = 500; // the retry countdown (whole seconds) is redrawn this often

/** The session of room `roomId` for `want` ("player" or "spectator"), not started yet. */
export function openSession(store, roomId, want) {
  const beforeJoin = want === "player" && !loadSeat(roomId) ? () => ensureIdentity(loadName() || undefined) : undefined;
  return createSession(store, { announce, beforeJoin });
}

/** Shows the line's state on the page in `el` (render/game.js's gameLayout) and ties
 *  `session` to the page's life. */
export function keepConnection({ el, store, session }) {
  let wasDown = false;
  let backTimer = null;
  store.subscribe((state) => {
    const down = lineDown(state);
    if (wasDown && !down && state.joined) {
      store.update({ lineBack: true });
      clearTimeout(backTimer);
      backTimer = setTimeout(() => store.update({ lineBack: false }), BACK_MS);
    } else if (down && state.lineBack) {
      store.update({ lineBack: false });
    }
    wasDown = down;
  });
  window.addEventListener("pagehide", () => session.leave());
  window.addEventListener("pageshow", (event) => { if (event.persisted) session.start(); });
  setInterval(() => {
    const { conn } = store.get();
    if (conn.state === "waiting") renderConn(el.conn, conn, { onRetry: () => session.reconnectNow() });
  }, COUNTDOWN_MS);
}
