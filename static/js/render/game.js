// The game page's DOM: the layout (built once) and renderGame(), which brings every part
// up to date with the view. Parts that did not change keep their nodes (memo), so keyboard
// focus and the slider survive the stream of events.

import { available } from "../model/actions.js";
import { attr, fill, h, memo, text } from "../browser/dom.js";
import { actionButtons } from "./actions.js";
import { renderAnalysis } from "./analysis.js";
import { renderBanner } from "./banner.js";
import { renderBoard } from "./board.js";
import { buildChat, renderChat } from "./chat.js";
import { renderClocks, updateClocks } from "./clocks.js";
import { renderGuesses } from "./guesses.js";
import { renderConn } from "./conn.js";
import { icon } from "./icons.js";
import { renderInfo } from "./info.js";
import { renderLine } from "./line.js";
import { renderMoves } from "./moves.js";
import { renderNotice } from "./notice.js";
import { renderOffers } from "./offers.js";
import { renderPlayers } from "./players.js";
import { renderReplay } from "./replay.js";
import { renderInvite } from "./share.js";

/** Which action's button waits for the answer to a command of this type. */
const ACTION_OF = {
  abort: "abort", resign: "resign", offer_draw: "offer-draw", accept_draw: "accept-draw",
  decline_draw: "decline-draw", takeback: "takeback", accept_takeback: "accept-takeback",
  decline_takeback: "decline-takeback", rematch: "rematch",
};

/** Players without what changes on every clock tick (their cards are rebuilt on change). */
const playersKey = (view) => JSON.stringify(view.players.map((p) => ({ ...p, clock: Boolean(p.clock), firstMove: null })));
/** The clocks' rail: who sits where (its digits are updated in place). */
const clocksKey = (view) => JSON.stringify(view.players.map((p) => [p.mark, p.name, p.seated, p.you, Boolean(p.clock)]));

/** on = {links, runAction, cancelConfirm, goReplay, watch, retry, dismissNotice,
 *        dismissMoveError, dismissActionError, toggleAnalysis, sendChat, setTitle} */
export function renderGame(el, state, view, on) {
  renderConn(el.conn, state.conn, { onRetry: on.retry });
  el.conn.hidden = Boolean(state.askName); // nothing is connecting before the name is given
  const gameNotice = state.notice;
  const noticeActions = [];
  if (state.offerWatch) {
    noticeActions.push(h("button", { type: "button", class: "button primary", onclick: on.watch },
      "Watch the game"));
  }
  if (!view.ready && gameNotice && gameNotice.tone === "error") {
    noticeActions.push(h("a", { class: "button", href: "/" }, "Back to the lobby"));
  }
  memo(el.notice, `${JSON.stringify(gameNotice)}|${state.offerWatch}|${view.ready}`, () =>
    renderNotice(el.notice, gameNotice, {
      actions: noticeActions,
      onDismiss: view.ready ? on.dismissNotice : null,
    }));
  el.page.dataset.ready = view.ready ? "true" : "false";
  el.page.dataset.role = state.role || state.want;
  if (!view.ready) {
    el.loading.hidden = Boolean(gameNotice) || Boolean(state.askName);
    return;
  }
  el.loading.hidden = true;
  el.page.dataset.status = view.status;

  text(el.variant, view.variant);
  text(el.rules, view.rulesText);
  memo(el.watchers, view.spectators, () => {
    fill(el.watchers, icon("eye"), h("span", { class: "count" }, String(view.spectators)),
      h("span", { class: "watch-word" }, " watching"));
    el.watchers.setAttribute("aria-label", `${view.spectators} watching`);
  });
  text(el.role, view.me ? `You play ${view.me}` : state.role === "spectator" ? "Spectating" : "");
  el.role.dataset.mark = view.me || "";

  memo(el.info, `${view.spectators}|${view.gameNumber}|${view.bots}`, () => renderInfo(el.info, view));
  attr(el.record, "href", `/api/rooms/${encodeURIComponent(view.roomId)}/record.txt`);
  attr(el.record, "download", `tictactoe-${view.roomId}-game${view.gameNumber}.txt`);
  text(el.gameNo, view.series ? `Game ${view.gameNumber}` : "");
  text(el.status, view.live ? view.statusText : `Reviewing move ${view.ply} of ${view.total}`);
  // the banner says the result; the invite card over the board says what an invitee may do
  el.status.hidden = (view.live && view.status === "finished") || Boolean(state.askName);
  el.status.dataset.tone = view.myTurn ? "your-turn" : view.status;
  const busy = new Set(Object.values(state.inflight || {}).map((c) => ACTION_OF[c.type]).filter(Boolean));
  const flashKey = `${JSON.stringify(state.flash)}|${state.confirming}|${[...busy]}`;
  const actionsKey = (place) => `${available(place, view).map((a) => `${a.id}:${a.label}`)}|${flashKey}`;
  const buttonsFor = (place) => actionButtons(available(place, view), {
    run: on.runAction, flash: state.flash, confirming: state.confirming, busy, cancel: on.cancelConfirm,
  });
  const errorAt = (place) => (state.actionError && state.actionError.place === place ? state.actionError : null);
  memo(el.players, `${playersKey(view)}|${view.series}`, () => renderPlayers(el.players, view));
  memo(el.clocks, clocksKey(view), () => renderClocks(el.clocks, view));
  updateClocks(el.clocks, view);
  memo(el.invite, `${view.status}|${Boolean(state.askName)}|${actionsKey("invite")}`, () =>
    renderInvite(el.invite, state.askName ? { ...view, status: "asking" } : view, on.links.play,
      actionButtons(available("invite", view), { run: on.runAction, flash: state.flash })));
  memo(el.banner, `${JSON.stringify(view.result)}|${view.rematchNote}|${view.ratingNote}|${actionsKey("banner")}`, () =>
    renderBanner(el.banner, view, { actions: buttonsFor("banner") }));
  memo(el.bannerError, errorAt("banner"), () =>
    renderNotice(el.bannerError, errorAt("banner"), { onDismiss: on.dismissActionError }));
  memo(el.offers, `${JSON.stringify(view.prompts)}|${actionsKey("offers")}|${JSON.stringify(errorAt("offers"))}`, () => {
    const offered = available("offers", view);
    renderOffers(el.offers, view.prompts, {
      buttons: (ids) => actionButtons(offered.filter((a) => ids.includes(a.id)), {
        run: on.runAction, flash: state.flash, busy, confirming: state.confirming, cancel: on.cancelConfirm,
      }),
      error: errorAt("offers"),
      onDismiss: on.dismissActionError,
    });
  });
  renderBoard(el.board, view.board);
  memo(el.lineOverlay, JSON.stringify(view.line), () => renderLine(el.boardFrame, el.lineOverlay, view.line));
  memo(el.moveError, state.moveError, () =>
    renderNotice(el.moveError, state.moveError, { onDismiss: on.dismissMoveError }));
  renderReplay(el.replay, view, { onGo: on.goReplay });
  const c = view.crowd;
  memo(el.guesses, JSON.stringify({ ...c, shares: [...c.shares] }), () => renderGuesses(el.guesses, c));
  memo(el.moves, `${view.total}|${view.ply}|${view.players.map((p) => p.name)}`, () =>
    renderMoves(el.moves, view, { onPick: on.goReplay }));
  memo(el.actions, actionsKey("bar"), () => fill(el.actions, buttonsFor("bar")));
  memo(el.actionError, errorAt("bar"), () =>
    renderNotice(el.actionError, errorAt("bar"), { onDismiss: on.dismissActionError }));
  const a = view.analysis;
  memo(el.analysis, `${a.allowed}|${a.playerLocked}|${a.on}|${a.loading}|${a.summary}|${JSON.stringify(a.error)}`, () =>
    renderAnalysis(el.analysis, a, { onToggle: on.toggleAnalysis }));
  el.chat.hidden = !view.chat.shown;
  if (!el.chat.__chat) buildChat(el.chat, { onSend: on.sendChat });
  memo(el.chat, `${view.chat.channel}|${view.chat.lines.length && view.chat.lines[view.chat.lines.length - 1].seq}|${JSON.stringify(view.chat.error)}|${view.chat.enabled}`, () =>
    renderChat(el.chat, view.chat));
  on.setTitle(`${view.live ? view.statusText : "Replay"} · ${view.variant} · Tic-Tac-Toe`);
}

export function gameLayout(app) {
  const $ = {};
  const part = (name, tag, props = {}, ...children) => ($[name] = h(tag, props, ...children));
  const header = document.querySelector(".site-header .header-extra");
  const conn = part("conn", "div", { class: "conn", role: "status", "aria-label": "Connection" });
  const alerts = part("alerts", "div", { class: "alerts", role: "group", "aria-label": "Sound and notifications" });
  if (header) fill(header, alerts, conn);
  $.page = h("div", { class: "game-page" },
    h("section", { class: "board-col", "aria-label": "Game" },
      h("div", { class: "game-head" },
        h("div", { class: "title-block" },
          part("variant", "h1", { class: "variant" }, "Tic-Tac-Toe"),
          part("rules", "p", { class: "rules-text" })),
        h("div", { class: "head-badges" },
          part("gameNo", "span", { class: "game-no" }),
          part("role", "span", { class: "role-badge" }),
          part("watchers", "span", { class: "watchers", role: "status" }))),
      part("notice", "div", { class: "notice", hidden: true, role: "alert" }),
      part("loading", "div", { class: "loading" },
        h("span", { class: "spinner", "aria-hidden": "true" }), "Joining the game…"),
      // The players and the status above the board keep their height from the first paint;
      // the result banner, with Rematch, is drawn over them once the game is over, so
      // nothing above the board ever pushes it down.
      h("div", { class: "board-top" },
        part("players", "ul", { class: "players", "aria-label": "Players" }),
        // One slot for the status, the offers and the page's answers to clicks: a message
        // moves nothing (the slot keeps its height; a taller one lies over the board's top).
        h("div", { class: "status-slot" },
          part("status", "p", { class: "status-line" }),
          part("offers", "div", { class: "offers", hidden: true, role: "region", "aria-label": "Offers", "aria-live": "polite" }),
          part("moveError", "div", { class: "notice move-error", hidden: true, role: "alert" })),
        h("div", { class: "result-slot" },
          part("banner", "div", { class: "banner", hidden: true, role: "status" }),
          part("bannerError", "div", { class: "notice", hidden: true, role: "alert" }))),
      // The board keeps its box from the first paint: the invitations and the line's state
      // are drawn over it, not beside it.
      part("stage", "div", { class: "board-stage" },
        part("boardFrame", "div", { class: "board-frame" },
          part("board", "div", { class: "board" }),
          part("invite", "section", { class: "invite-card card", hidden: true }),
          part("nameCard", "section", { class: "name-card invite-card card", hidden: true, "aria-label": "Invitation" }),
          part("lineOverlay", "div", { class: "line-overlay", role: "status", hidden: true })),
        part("clocks", "div", { class: "clock-rail", role: "group", "aria-label": "Clocks", hidden: true })),
      part("tools", "div", { class: "board-tools", role: "group", "aria-label": "Board tools", hidden: true }),
      part("replay", "div", { class: "replay", role: "group", "aria-label": "Replay" }),
      part("guesses", "section", { class: "guess-card card", hidden: true, "aria-label": "Guess the next move", "aria-live": "polite" })),
    h("aside", { class: "side-col", "aria-label": "Game details and moves" },
      h("section", { class: "info-card card", "aria-labelledby": "info-title" },
        h("h2", { id: "info-title" }, "Game"),
        part("info", "dl", { class: "info" }),
        part("actions", "div", { class: "action-bar", role: "group", "aria-label": "Actions" }),
        part("actionError", "div", { class: "notice", hidden: true, role: "alert" })),
      part("analysis", "section", { class: "analysis-card card", hidden: true, "aria-label": "Analysis" }),
      h("section", { class: "moves-box card", "aria-label": "Moves" },
        h("div", { class: "moves-head" },
          h("h2", {}, "Moves"),
          part("record", "a", { class: "record-link", download: "", title: "The game as a text record (PGN-like)" }, "Download record")),
        part("moves", "div", { class: "moves" })),
      part("chat", "section", { class: "chat-card card", "aria-label": "Chat" })));
  fill(app, $.page);
  return $;
}
