// The embeddable viewer (/embed/{id}, framed by other sites): one game's record, served
// inside the page (server/web/embed_page.py), drawn as the board with the replay bar, the
// move list and the analysis switch. It opens no WebSocket and reads no identity: the game
// shown is the record as the page was served, and "Open" leads to the room itself.

import { fill, h, text } from "../browser/dom.js";
import { createStore } from "../browser/store.js";
import { positionAt } from "../model/board.js";
import { gameView } from "../model/view.js";
import { createAnalysis } from "../net/analysis.js";
import { pageEmbed } from "../net/page-room.js";
import { renderAnalysis } from "../render/analysis.js";
import { renderBoard } from "../render/board.js";
import { renderMoves } from "../render/moves.js";
import { renderReplay } from "../render/replay.js";

const MISSING = {
  room_not_found: "This game is not here any more: rooms are kept for a day after their last move.",
  not_found: "This room has no such game.",
  unavailable: "The server cannot read this game right now. Reload in a moment.",
};

/** The record as the room the game page's view model reads (model/view.js), watched. */
export function roomOfRecord(game) {
  const { rules, moves, outcome } = game;
  const marks = ["X", "O", "A", "B"].slice(0, rules.players || 2);
  return {
    room_id: game.room_id,
    rules,
    moves,
    position: positionAt(moves, rules, moves.length),
    players: game.players.map((p) => ({ ...p, connected: false })),
    seats: marks.length,
    status: outcome ? "finished" : "playing",
    turn: marks[moves.length % marks.length],
    outcome,
    offers: {},
    spectators: 0,
    clock: null,
    game_number: game.game_number,
  };
}

export function startEmbed(app, roomId) {
  document.body.dataset.embed = "true";
  const game = pageEmbed();
  if (!game || game.error || game.room_id !== roomId) {
    const why = (game && MISSING[game.error]) || "This game cannot be shown.";
    fill(app, h("section", { class: "embed embed-missing" }, h("p", {}, why)));
    return null;
  }
  const room = roomOfRecord(game);
  const store = createStore({
    roomId, role: "spectator", want: "spectator", room, replay: 0, analysis: { on: false },
    conn: { state: "stopped" }, joined: false, chat: [],
  });
  const analysis = createAnalysis(store);
  const goTo = (ply) => store.update({ replay: ply === null || ply >= room.moves.length ? null : Math.max(0, ply) });

  const live = `/r/${encodeURIComponent(roomId)}`;
  const board = h("div", { class: "board" });
  const replay = h("div", { class: "replay", "aria-label": "Step through the game" });
  const moves = h("div", { class: "moves embed-moves", "aria-label": "Moves" });
  const analysisCard = h("section", { class: "analysis card", "aria-label": "Analysis" });
  const result = h("p", { class: "embed-result", role: "status" });
  const players = h("p", { class: "embed-players" });
  fill(app, h("section", { class: "embed", dataset: { gameId: game.game_id || "" } },
    h("header", { class: "embed-head" },
      players,
      h("a", { class: "embed-open", href: live, target: "_blank", rel: "noopener" }, "Open ↗")),
    result,
    h("div", { class: "embed-board" }, board),
    replay,
    moves,
    analysisCard,
    game.game_id ? h("p", { class: "embed-id hint" }, `Game ${game.game_id}`) : null));

  function render(state) {
    const view = gameView({ ...state, now: Date.now() });
    const names = game.players.map((p) => `${p.name} (${p.mark})`).join(" vs ");
    text(players, `${names} · ${view.variant}`);
    const over = view.result;
    text(result, !view.live ? `Move ${view.ply} of ${view.total}` :
      over ? `${over.title}${over.detail ? ` · ${over.detail}` : ""}` : "Game in progress");
    renderBoard(board, { ...view.board, interactive: false, myTurn: false });
    renderReplay(replay, view, { onGo: goTo });
    renderMoves(moves, view, { onPick: goTo });
    renderAnalysis(analysisCard, view.analysis, { onToggle: (on) => analysis.toggle(on) });
    analysis.refresh(view.analysis);
  }

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const s = store.get();
    const ply = s.replay ?? room.moves.length;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: null }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    goTo(to);
  });
  store.subscribe(render);
  render(store.get());
  return { store };
}
