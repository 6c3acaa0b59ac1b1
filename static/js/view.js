// The game page's view model: everything the renderers show, derived from the page
// state in one pure function. The live board is the server's; a replayed position is
// rebuilt from the server's move history.

import { cellKey, positionAt } from "./board-model.js";
import { cellName, cellSpoken, describe, is3d, variantName } from "./rules.js";
import { outcomeText, playerName, statusLine } from "./text.js";

export function gameView(s) {
  const room = s.room;
  const me = s.role === "player" ? s.mark : null;
  const base = {
    roomId: s.roomId, role: s.role, me, joined: s.joined, conn: s.conn,
    notice: s.notice, offerWatch: s.offerWatch, moveError: s.moveError,
    ready: Boolean(room),
  };
  if (!room) return base;
  const rules = room.rules;
  const total = room.moves.length;
  const ply = s.replay === null ? total : Math.max(0, Math.min(total, s.replay));
  const live = ply === total;
  const position = live ? room.position : positionAt(room.moves, rules, ply);
  const last = ply > 0 ? room.moves[ply - 1] : null;
  const lastKey = last ? cellKey(last) : null;
  const line = live && room.outcome && Array.isArray(room.outcome.line) ? room.outcome.line : [];
  const winKeys = new Set(line.map(cellKey));
  const pendingKey = s.pending ? cellKey(pendingCell(s.pending)) : null;
  const playing = room.status === "playing";
  const interactive = Boolean(me && live && playing && s.joined && !s.pending);
  const myTurn = interactive && room.turn === me;

  const layers = position.map((grid, layer) => ({
    layer,
    label: is3d(rules) ? `Layer ${layer + 1}${layer === 0 ? " (bottom)" : layer === rules.layers - 1 ? " (top)" : ""}` : "Board",
    rows: grid.map((cells, row) => cells.map((mark, col) => {
      const where = { row, col, layer };
      const key = cellKey(where);
      const isLast = key === lastKey;
      const isWin = winKeys.has(key);
      let label = `${cellSpoken(where, rules)}, ${mark || "empty"}`;
      if (isLast) label += ", last move";
      if (isWin) label += ", winning line";
      return { key, row, col, layer, mark, last: isLast, win: isWin, pending: key === pendingKey, label };
    })),
  }));

  const players = Array.from({ length: room.seats }, (_, i) => {
    const mark = ["X", "O", "A", "B"][i];
    const p = room.players.find((x) => x.mark === mark);
    return {
      mark,
      name: p ? p.name : null,
      seated: Boolean(p),
      connected: Boolean(p && p.connected),
      you: mark === me,
      toMove: room.status === "playing" && room.turn === mark,
      winner: room.outcome && room.outcome.winner === mark,
    };
  });

  return {
    ...base,
    room, rules, me, live, ply, total, position, myTurn, interactive,
    status: room.status,
    turn: room.turn,
    variant: variantName(rules),
    rulesText: describe(rules),
    statusText: statusLine(room, me),
    result: room.status === "finished" ? outcomeText(room.outcome, room, me) : null,
    spectators: room.spectators,
    players,
    moves: room.moves.map((m, i) => ({
      ply: i + 1, mark: m.mark, name: cellName(m, rules),
      label: `${playerName(room.players, m.mark)} (${m.mark}): ${cellSpoken(m, rules)}`,
      current: i + 1 === ply,
    })),
    board: {
      shapeKey: `${rules.rows}x${rules.cols}x${rules.layers || 1}`,
      rules, layers,
      interactive,
      myTurn,
      finished: room.status === "finished" && live,
      hasLine: winKeys.size > 0,
      animate: live,
      busy: Boolean(s.pending),
      focusKey: s.focus && layers.some((l) => l.layer === s.focus.layer) ? cellKey(s.focus) : defaultFocus(rules),
    },
  };
}

/** Where the pending move is shown: the previewed landing cell, else the clicked one. */
function pendingCell(pending) {
  const cell = pending.shown || pending.cell;
  return { row: cell.row, col: cell.col, layer: cell.layer || 0 };
}

function defaultFocus(rules) {
  return cellKey({
    row: rules.gravity && !is3d(rules) ? rules.rows - 1 : Math.floor((rules.rows - 1) / 2),
    col: Math.floor((rules.cols - 1) / 2),
    layer: 0,
  });
}
