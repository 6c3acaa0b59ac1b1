// The room as the server last described it: a snapshot, moved forward by events.
// Pure functions: (room, message) → new room. Nothing here decides legality or
// results; a move changes the board only because a `moved` event says it landed.

import { parseBoard } from "./board-model.js";

/** The client's copy of a room from a snapshot (`welcome.state`, `state.state`). */
export function fromSnapshot(snapshot) {
  return { ...snapshot, position: parseBoard(snapshot.board, snapshot.rules) };
}

const APPLY = {
  player_joined(room, ev) {
    const players = room.players.filter((p) => p.mark !== ev.player.mark);
    players.push(ev.player);
    players.sort((a, b) => seatIndex(a.mark) - seatIndex(b.mark));
    return { ...room, players, status: ev.status ?? room.status };
  },
  presence(room, ev) {
    const players = room.players.map((p) =>
      p.mark === ev.mark ? { ...p, connected: ev.connected } : p);
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
    const moves = [...room.moves, { mark: ev.mark, row: ev.row, col: ev.col, layer }];
    return {
      ...room, position, moves,
      ply: ev.ply ?? moves.length,
      turn: ev.turn ?? null,
      status: ev.status ?? room.status,
      outcome: ev.outcome ?? null,
    };
  },
};

const SEAT_ORDER = ["X", "O", "A", "B"];
const seatIndex = (mark) => SEAT_ORDER.indexOf(mark);

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
  return { room: { ...apply(room, ev), version: ev.version }, result: "applied" };
}
