// The room as the server last described it: a snapshot, moved forward by events.
// Pure functions: (room, message) → new room. Nothing here decides legality or
// results; a move changes the board only because a `moved` event says it landed, a game
// ends only because a `moved` or `game_over` event says so.

import { parseBoard } from "./board.js";

const NO_OFFERS = Object.freeze({ draw: null, takeback: null, rematch: [] });

/** The client's copy of a room from a snapshot (`welcome.state`, `state.state`). */
export function fromSnapshot(snapshot) {
  return {
    clock: null, due: null, games: [], game_number: 1, ...snapshot,
    offers: { ...NO_OFFERS, ...(snapshot.offers || {}) },
    position: parseBoard(snapshot.board, snapshot.rules),
  };
}

/** What every lifecycle event may carry about the room as it is after the change. */
function withCommon(room, ev) {
  const next = { ...room };
  if ("clock" in ev) next.clock = ev.clock;
  if ("due" in ev) next.due = ev.due;
  if (ev.offers) next.offers = { ...NO_OFFERS, ...ev.offers };
  if (Array.isArray(ev.players)) next.players = sortSeats(ev.players);
  return next;
}

const APPLY = {
  player_joined(room, ev) {
    const players = room.players.filter((p) => p.mark !== ev.player.mark);
    players.push(ev.player);
    return { ...room, players: sortSeats(players), status: ev.status ?? room.status };
  },
  presence(room, ev) {
    const players = room.players.map((p) => (p.mark !== ev.mark ? p : {
      ...p,
      connected: ev.connected,
      away_since: ev.away_since ?? null,
      left: Boolean(ev.left),
      claimable_at: ev.claimable_at ?? null,
    }));
    return { ...room, players };
  },
  spectators(room, ev) {
    return { ...room, spectators: ev.count };
  },
  moved(room, ev) {
    const layer = ev.layer || 0;
    const position = room.position.map((grid, l) =>
      l !== layer ? grid : grid.map((cells, r) =>
        r !== ev.row ? cells : cells.map((v, c) => (c === ev.col ? ev.mark : v))));
    const move = { mark: ev.mark, row: ev.row, col: ev.col, layer };
    if (ev.at !== undefined) move.at = ev.at;
    if (ev.unproven) move.unproven = true; // the perfect bot's guess: no proof in time
    const moves = [...room.moves, move];
    return {
      ...room, position, moves,
      ply: ev.ply ?? moves.length,
      turn: ev.turn ?? null,
      status: ev.status ?? room.status,
      outcome: ev.outcome ?? null,
      ended_at: ev.status === "finished" ? (ev.at ?? room.ended_at ?? null) : room.ended_at,
    };
  },
  game_over(room, ev) {
    return { ...room, status: ev.status || "finished", turn: null, outcome: ev.outcome };
  },
  draw_offered: (room) => room,
  draw_declined: (room) => room,
  takeback_offered: (room) => room,
  takeback_declined: (room) => room,
  rematch_offered: (room) => room,
  rated(room, ev) { // a rated game's ratings were updated (once): the change, for the banner
    return { ...room, rating_change: { game_number: ev.game_number, pool: ev.pool, rating_change: ev.rating_change } };
  },
  undone(room, ev) {
    const taken = Array.isArray(ev.moves) ? ev.moves.length : 0;
    return {
      ...room,
      board: ev.board,
      position: parseBoard(ev.board, room.rules),
      moves: room.moves.slice(0, Math.max(0, room.moves.length - taken)),
      ply: ev.ply,
      turn: ev.turn,
      status: ev.status ?? room.status,
    };
  },
  new_game(room, ev) {
    const finished = {
      game_number: room.game_number,
      players: room.players.map((p) => ({ mark: p.mark, name: p.name })),
      moves: room.moves, outcome: room.outcome,
      started_at: room.started_at ?? null, ended_at: room.ended_at ?? null,
    };
    return {
      ...room,
      games: [...(room.games || []), finished].slice(-50),
      game_number: ev.game_number,
      board: ev.board,
      position: parseBoard(ev.board, room.rules),
      moves: [],
      ply: ev.ply ?? 0,
      turn: ev.turn,
      status: ev.status,
      outcome: null,
      started_at: ev.started_at ?? null,
      ended_at: null,
    };
  },
};

const SEAT_ORDER = ["X", "O", "A", "B"];
const seatIndex = (mark) => SEAT_ORDER.indexOf(mark);
const sortSeats = (players) => [...players].sort((a, b) => seatIndex(a.mark) - seatIndex(b.mark));

/** Whether this client knows how to apply events of this type. */
export const knowsEvent = (type) => Object.hasOwn(APPLY, type);

/**
 * Apply one event. Returns {room, result} where result is
 *   "applied"  – the event was the next version and is now part of the room,
 *   "old"      – at or below the room's version: already known, ignored,
 *   "gap"      – newer than the next version: the client must `sync`,
 *   "unknown"  – the next version but a type this client cannot apply: `sync` too.
 */
export function applyEvent(room, ev) {
  if (!Number.isInteger(ev.version) || ev.version <= room.version) return { room, result: "old" };
  if (ev.version !== room.version + 1) return { room, result: "gap" };
  const apply = APPLY[ev.type];
  if (!apply) return { room: { ...room, version: ev.version }, result: "unknown" };
  return { room: { ...withCommon(apply(room, ev), ev), version: ev.version }, result: "applied" };
}
