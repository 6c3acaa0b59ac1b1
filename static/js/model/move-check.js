// What a click on a board cell means, decided in the page with the rules and board it
// already has, before anything is sent: a move to play now (drawn at once as a
// prediction), a premove to keep for the player's next turn, or a refusal the page answers
// itself, with no frame sent. The server still decides: a move sent can be refused, and
// the page then rolls its prediction back (session.js).

import { landing } from "./board.js";
import { MARKS, cellName, colLetter, is3d } from "./rules.js";
import { playerName } from "./text.js";

/**
 * ctx = {room, me, position, pending, premove, live}
 * Returns one of
 *   {kind: "move", cell, target}      – the player's turn and a free cell: play it
 *   {kind: "premove", cell, target}   – someone else's turn, a free cell: queue it
 *   {kind: "cancel"}                  – the queued premove clicked again: forget it
 *   {kind: "refuse", code, title, message} – answered here; nothing is sent
 *   {kind: "ignore"}                  – not a player's board (spectator, replay, game over)
 */
export function judgeClick(ctx, cell) {
  const { room, me, live } = ctx;
  if (!room || !me || !live || room.status !== "playing") return { kind: "ignore" };
  const rules = room.rules;
  const position = predictedPosition(ctx);
  const target = landing(position, rules, cell);
  const yours = room.turn === me && !ctx.pending;
  if (!yours && ctx.premove && sameTarget(ctx.premove, cell, rules)) return { kind: "cancel" };
  if (!target) return { kind: "refuse", ...blocked(position, rules, cell, yours, room) };
  return { kind: yours ? "move" : "premove", cell, target };
}

/** The live position with the player's own move drawn while the server has not yet
 *  confirmed it (a prediction); the server's position as is otherwise. */
export function predictedPosition({ position, pending, me }) {
  const at = pending && pending.shown;
  if (!at || !me) return position;
  const layer = at.layer || 0;
  if (!position[layer] || position[layer][at.row]?.[at.col] !== null) return position;
  return position.map((grid, l) => (l !== layer ? grid : grid.map((cells, r) =>
    r !== at.row ? cells : cells.map((v, c) => (c === at.col ? me : v)))));
}

/** The mark that moves after `mark` (the turn the page shows while its move is in flight). */
export function nextMark(mark, seats) {
  const i = MARKS.indexOf(mark);
  return MARKS[(i + 1) % Math.max(2, seats || 2)];
}

function sameTarget(premove, cell, rules) {
  const a = premove.cell;
  if (rules.gravity && !is3d(rules)) return a.col === cell.col;
  if (rules.gravity) return a.row === cell.row && a.col === cell.col;
  return a.row === cell.row && a.col === cell.col && (a.layer || 0) === (cell.layer || 0);
}

function blocked(position, rules, cell, yours, room) {
  const where = rules.gravity && !is3d(rules) ? null : cellName(cell, rules);
  const pillar = `${colLetter(cell.col)}${cell.row + 1}`;
  const title = where === null ? `Column ${colLetter(cell.col)} is full`
    : rules.gravity ? `The pillar at ${pillar} is full` : `${where} is taken`;
  const code = rules.gravity ? "column_full" : "occupied";
  const message = yours ? "Choose an empty cell." : `It is ${playerName(room.players, room.turn)}'s move.`;
  return { code, title, message, tone: "hint" };
}
