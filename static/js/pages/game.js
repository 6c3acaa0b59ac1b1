// The game page (/r/{id} to play, /r/{id}/watch to watch): lays out the page, starts
// the session, renders every state change, and turns clicks and keys into intentions.

import { createAnalysis } from "../net/analysis.js";
import { getRoom } from "../net/api.js";
import { announce } from "../browser/announce.js";
import { showAlerts } from "../game/alerts.js";
import { createAttention } from "../game/attention.js";
import { createBoardInput } from "../game/board-input.js";
import { createBoardTools } from "../game/board-tools.js";
import { tickClocks } from "../game/clocks.js";
import { createControls } from "../game/controls.js";
import { createReplay } from "../game/replay.js";
import { guestName } from "../model/names.js";
import { renderConn } from "../render/conn.js";
import { gameLayout, renderGame } from "../render/game.js";
import { renderNameForm } from "../render/name-form.js";
import { variantName } from "../model/rules.js";
import { createSession, initialGameState } from "../net/session.js";
import { createSound } from "../browser/sound.js";
import { createdHere, loadIdentity, loadName, loadSeat, saveName } from "../browser/storage.js";
import { ensureIdentity, renameIdentity } from "../net/identity.js";
import { pageSnapshot } from "../net/page-room.js";
import { createStore } from "../browser/store.js";
import { followToNextGame } from "../game/tournament-follow.js";
import { gameView, lineDown } from "../model/view.js";

const BACK_MS = 2000; // how long "Back" stays on the board after the line returns

export function startGame(app, roomId, want) {
  const shown = pageSnapshot(roomId); // the room as served with the page, drawn at once
  const store = createStore({ ...initialGameState(roomId, want, shown), focus: null, flash: null });
  // a seat-taking join waits for the player's identity (made once, by the first seat)
  const beforeJoin = want === "player" && !loadSeat(roomId) ? () => ensureIdentity(loadName() || undefined) : undefined;
  const session = createSession(store, { announce, beforeJoin });
  const analysis = createAnalysis(store);
  const attention = createAttention(store, { sound: createSound(), roomId });

  const el = gameLayout(app);
  let view = gameView(store.get());
  const current = () => view; // the parts read the view of the last render

  const goReplay = createReplay({ el, store, view: current });
  const { handlers, flash } = createControls({ el, store, session, analysis, attention, roomId, goReplay, view: current });
  showAlerts({ el, store, attention });

  // -- the board: input, and a large board's tools on a phone -------------------------------

  const tools = createBoardTools(el, current);
  const board = createBoardInput({ el, store, session, tools, view: current });

  function render(state) {
    view = gameView(state);
    renderGame(el, state, view, handlers);
    tools.render();
    board.refresh();
    analysis.refresh(view.analysis);
  }

  store.subscribe(render);
  // A tournament game over: its player's page goes on to their next game by itself.
  let following = false;
  store.subscribe((state) => {
    const mine = loadIdentity()?.id;
    if (following || !view.tournament || !view.me || !mine || state.room?.status !== "finished") return;
    following = true;
    followToNextGame(view.tournament, mine, roomId, {
      onNext: () => flash("tournament", "Your next game is ready: going to it…"),
    });
  });
  // "Reconnecting…" covers the board while the line is down; "Back" for a moment after.
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
  tickClocks(store, current);
  // Closing the tab on purpose: the opponent may claim after the short leave grace.
  window.addEventListener("pagehide", () => session.leave());
  window.addEventListener("pageshow", (event) => { if (event.persisted) session.start(); }); // back from the bfcache
  setInterval(() => { // the "retrying in Ns" countdown
    const { conn } = store.get();
    if (conn.state === "waiting") renderConn(el.conn, conn, { onRetry: handlers.retry });
  }, 500);
  render(store.get());
  if (want === "player" && !loadSeat(roomId) && !createdHere(roomId)) askName();
  else session.start();
  return { store, session };

  /** A play link opened by someone with no seat there (an invite): ask for the name to show
   *  (prefilled with the stored one, else a neutral guest name) before taking the seat, so
   *  the others see who they play. Not asked: a seat already held (a reload resumes it),
   *  a room this browser just created (its name was given in the lobby), a spectator. A room
   *  that is missing or full is left to the session to explain (no seat to name). */
  async function askName() {
    let room = shown; // served with the page: no round trip before the question
    if (room === undefined) { // a page from another file server: ask the API
      try {
        room = await getRoom(roomId);
      } catch {
        room = null;
      }
    }
    if (!room) {
      session.start();
      return;
    }
    const players = Array.isArray(room.players) ? room.players : [];
    if (players.length >= (room.seats || 2)) {
      session.start();
      return;
    }
    const waiting = players.filter((p) => !p.bot).map((p) => p.name);
    store.update({ askName: true });
    renderNameForm(el.nameCard, {
      title: `You are invited to play ${room.rules ? variantName(room.rules) : "Tic-Tac-Toe"}`,
      detail: waiting.length ? `${waiting.join(" and ")} ${waiting.length === 1 ? "is" : "are"} waiting.` : null,
      value: loadName() || guestName(),
      onName(name) {
        saveName(name);
        // the identity goes by the name chosen now; a first one is made while the socket opens
        if (loadIdentity()) renameIdentity(name);
        else ensureIdentity(name);
        el.nameCard.hidden = true;
        store.update({ askName: false });
        session.start();
      },
    });
  }
}
