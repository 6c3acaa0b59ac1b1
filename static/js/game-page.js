// The game page (/r/{id} to play, /r/{id}/watch to watch): lays out the page, starts
// the session, renders every state change, and turns clicks and keys into intentions.

import { available } from "./actions.js";
import { createRoom } from "./api.js";
import { announce } from "./announce.js";
import { cellKey, landing } from "./board-model.js";
import { copyText } from "./clipboard.js";
import { fill, h, text } from "./dom.js";
import { nextCell } from "./keyboard.js";
import { actionButtons } from "./render/actions.js";
import { renderBanner } from "./render/banner.js";
import { clearPreview, renderBoard, showPreview } from "./render/board.js";
import { renderConn } from "./render/conn.js";
import { icon } from "./render/icons.js";
import { renderMoves } from "./render/moves.js";
import { renderNotice } from "./render/notice.js";
import { renderPlayers } from "./render/players.js";
import { renderReplay } from "./render/replay.js";
import { renderInfo } from "./render/info.js";
import { renderInvite } from "./render/share.js";
import { createSession, initialGameState } from "./session.js";
import { createStore } from "./store.js";
import { gameView } from "./view.js";

export function startGame(app, roomId, want) {
  const store = createStore({ ...initialGameState(roomId, want), focus: null, flash: null });
  const session = createSession(store, { announce });
  const links = {
    play: `${location.origin}/r/${encodeURIComponent(roomId)}`,
    watch: `${location.origin}/r/${encodeURIComponent(roomId)}/watch`,
  };

  const el = layout(app);
  let view = gameView(store.get());
  let hovered = null; // the cell under the pointer or keyboard focus, for the preview

  const ctx = {
    links,
    async copy(value) {
      return copyText(value);
    },
    async newRoom(rules, isPublic) {
      try {
        const room = await createRoom(rules, isPublic);
        location.assign(`/r/${encodeURIComponent(room.room_id)}`);
      } catch (err) {
        store.update({ notice: { code: err.code, title: "Could not create a new game", message: err.message, tone: "error" } });
      }
    },
    goLobby: () => location.assign("/"),
  };

  async function runAction(action) {
    if (action.send) {
      session.send(action.send);
      return;
    }
    const result = await action.run(view, ctx);
    if (result === true && action.done) flash(action.id, action.done);
    else if (result === false) {
      store.update({ notice: { code: "copy_failed", title: "Could not copy", message: "select the link and copy it by hand", tone: "error" } });
    }
  }

  let flashTimer = null;
  function flash(id, message) {
    store.update({ flash: { id, text: message } });
    announce(message);
    clearTimeout(flashTimer);
    flashTimer = setTimeout(() => store.update({ flash: null }), 1800);
  }

  function goReplay(ply) {
    const total = store.get().room ? store.get().room.moves.length : 0;
    store.update({ replay: ply === null || ply >= total ? null : Math.max(0, ply) });
  }

  // -- rendering -------------------------------------------------------------------------

  function render(state) {
    view = gameView(state);
    renderConn(el.conn, state.conn, { onRetry: () => session.reconnectNow() });
    const gameNotice = state.notice;
    const noticeActions = [];
    if (state.offerWatch) {
      noticeActions.push(h("button", { type: "button", class: "button primary", onclick: () => session.watch() }, "Watch the game"));
    }
    if (!view.ready && gameNotice && gameNotice.tone === "error") {
      noticeActions.push(h("a", { class: "button", href: "/" }, "Back to the lobby"));
    }
    renderNotice(el.notice, gameNotice, {
      actions: noticeActions,
      onDismiss: view.ready ? () => store.update({ notice: null }) : null,
    });
    el.page.dataset.ready = view.ready ? "true" : "false";
    el.page.dataset.role = state.role || state.want;
    if (!view.ready) {
      el.loading.hidden = Boolean(gameNotice);
      return;
    }
    el.loading.hidden = true;
    el.page.dataset.status = view.status;

    text(el.variant, view.variant);
    text(el.rules, view.rulesText);
    fill(el.watchers, icon("eye"), h("span", { class: "count" }, String(view.spectators)),
      ` watching`);
    el.watchers.setAttribute("aria-label", `${view.spectators} watching`);
    text(el.role, view.me ? `You play ${view.me}` : state.role === "spectator" ? "Spectating" : "");
    el.role.dataset.mark = view.me || "";

    renderInfo(el.info, view);
    text(el.status, view.live ? view.statusText : `Reviewing move ${view.ply} of ${view.total}`);
    el.status.hidden = view.live && view.status === "finished"; // the banner says it
    el.status.dataset.tone = view.myTurn ? "your-turn" : view.status;
    renderPlayers(el.players, view);
    renderInvite(el.invite, view, links.play,
      actionButtons(available("invite", view), { run: runAction, flash: state.flash }));
    renderBanner(el.banner, view, {
      actions: actionButtons(available("banner", view), { run: runAction, flash: state.flash }),
    });
    renderBoard(el.board, view.board);
    renderNotice(el.moveError, state.moveError, { onDismiss: () => store.update({ moveError: null }) });
    renderReplay(el.replay, view, { onGo: goReplay });
    renderMoves(el.moves, view, { onPick: goReplay });
    fill(el.actions, actionButtons(available("bar", view), { run: runAction, flash: state.flash }));
    document.title = `${view.live ? view.statusText : "Replay"} · ${view.variant} · Tic-Tac-Toe`;
    refreshPreview();
  }

  // -- board input -----------------------------------------------------------------------

  function cellOf(target) {
    const btn = target && target.closest ? target.closest(".cell") : null;
    if (!btn || !el.board.contains(btn)) return null;
    return { row: Number(btn.dataset.row), col: Number(btn.dataset.col), layer: Number(btn.dataset.layer) };
  }

  function previewTarget(cell) {
    if (!cell || !view.myTurn) return null;
    return landing(view.position, view.rules, cell);
  }

  function refreshPreview() {
    const target = previewTarget(hovered);
    if (target) showPreview(el.board, cellKey(target), view.me);
    else clearPreview(el.board);
  }

  el.board.addEventListener("click", (event) => {
    const cell = cellOf(event.target);
    if (!cell) return;
    store.update({ focus: cell });
    if (!view.interactive) return;
    session.play(cell, previewTarget(cell) || cell);
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
    if (!cell || !view.rules) return;
    const next = nextCell(event.key, cell, view.rules);
    if (!next) return;
    event.preventDefault();
    store.update({ focus: next });
    const btn = el.board.querySelector(`[data-key="${cellKey(next)}"]`);
    if (btn) btn.focus();
  });

  // Left/right arrows step through the moves when nothing else wants them (like lichess).
  document.addEventListener("keydown", (event) => {
    const t = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (t && t.closest && (t.closest("input, textarea, select, .board"))) return;
    if (!view.ready) return;
    const moves = { ArrowLeft: view.ply - 1, ArrowRight: view.ply + 1, Home: 0, End: null };
    if (!(event.key in moves)) return;
    event.preventDefault();
    goReplay(moves[event.key]);
  });

  store.subscribe(render);
  setInterval(() => { // the "retrying in Ns" countdown
    if (store.get().conn.state === "waiting") renderConn(el.conn, store.get().conn, { onRetry: () => session.reconnectNow() });
  }, 500);
  render(store.get());
  session.start();
  return { store, session };
}

function layout(app) {
  const $ = {};
  const part = (name, tag, props = {}, ...children) => ($[name] = h(tag, props, ...children));
  const header = document.querySelector(".site-header .header-extra");
  if (header) fill(header, part("conn", "div", { class: "conn", role: "status", "aria-label": "Connection" }));
  else $.conn = h("div");
  $.page = h("div", { class: "game-page" },
    h("section", { class: "board-col", "aria-label": "Game" },
      h("div", { class: "game-head" },
        h("div", { class: "title-block" },
          part("variant", "h1", { class: "variant" }, "Tic-Tac-Toe"),
          part("rules", "p", { class: "rules-text" })),
        h("div", { class: "head-badges" },
          part("role", "span", { class: "role-badge" }),
          part("watchers", "span", { class: "watchers", role: "status" }))),
      part("notice", "div", { class: "notice", hidden: true, role: "alert" }),
      part("loading", "div", { class: "loading" }, h("span", { class: "spinner", "aria-hidden": "true" }), "Joining the game…"),
      part("invite", "section", { class: "invite-card card", hidden: true }),
      part("players", "ul", { class: "players", "aria-label": "Players" }),
      part("banner", "div", { class: "banner", hidden: true, role: "status" }),
      part("status", "p", { class: "status-line" }),
      part("board", "div", { class: "board" }),
      part("moveError", "div", { class: "notice move-error", hidden: true, role: "alert" }),
      part("replay", "div", { class: "replay", role: "group", "aria-label": "Replay" })),
    h("aside", { class: "side-col", "aria-label": "Game details and moves" },
      h("section", { class: "info-card card", "aria-labelledby": "info-title" },
        h("h2", { id: "info-title" }, "Game"),
        part("info", "dl", { class: "info" }),
        part("actions", "div", { class: "action-bar", role: "group", "aria-label": "Actions" })),
      h("section", { class: "moves-box card", "aria-label": "Moves" },
        h("h2", {}, "Moves"),
        part("moves", "div", { class: "moves" }))));
  fill(app, $.page);
  return $;
}
