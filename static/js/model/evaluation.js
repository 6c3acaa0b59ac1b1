// The analysis overlay as data (pure): the server's per-cell values (POST /api/analysis)
// turned into short labels for the board, "W3" / "D" / "L5" (a bare "W"/"L" when proven but
// the distance was not measured in time) or an unproven heuristic "+12", and
// who may see them. Values are for the side to move if it plays that cell.

import { cellKey } from "./board.js";

/** Spectators always; players only once their game is over, so it cannot help them play. */
export function analysisAllowed(role, status) {
  return role === "spectator" || (role === "player" && status === "finished");
}

function signed(score) {
  const abs = Math.abs(score);
  const text = abs >= 10000 ? `${Math.round(abs / 1000)}k` : String(abs);
  return `${score < 0 ? "−" : "+"}${text}`;
}

/** {text, tone, spoken} for one analysed move. */
export function cellEval(cell) {
  const n = cell.moves_to_end;
  // a proven win or loss whose distance was not measured in time has no number
  const far = n == null ? ", distance not measured" : `, ${n} ${n === 1 ? "move" : "moves"} to the end`;
  switch (cell.value) {
    case "win": return { text: `W${n ?? ""}`, tone: "win", spoken: `wins${far}` };
    case "loss": return { text: `L${n ?? ""}`, tone: "loss", spoken: `loses${far}` };
    case "draw": return { text: "D", tone: "draw", spoken: "draw" };
    default: return { text: signed(cell.score), tone: "unknown", spoken: `unproven, estimate ${signed(cell.score)}` };
  }
}

/** Map of cell key → eval for a server answer. */
export function evalMap(result) {
  const map = new Map();
  for (const cell of (result && result.cells) || []) map.set(cellKey(cell), cellEval(cell));
  return map;
}

/** The event a render module sends up (bubbling) to ask for the replay one move back:
 *  from a finished board, the position before the last move has values to show. */
export const STEP_BACK_EVENT = "analysis-step-back";

/** True when the answer is in and no cell has a value: the board is a finished one. */
export function nothingToShow(a) {
  return Boolean(a && a.on && !a.loading && !a.error && a.cells && a.cells.size === 0);
}

/** One line summing the position up for the side to move. */
export function summary(result, names) {
  if (!result) return "";
  if (result.over) return "The game is over on this board: no move is left to weigh.";
  const who = names(result.turn);
  const best = result.cells[0];
  if (!best) return "";
  const verdict = {
    win: `${who} to move wins with best play`,
    draw: `Best play from here is a draw`,
    loss: `${who} to move loses against best play`,
  }[best.value];
  return verdict ? `${verdict}.` : `Not solved in time: estimates for ${who} to move (higher is better).`;
}
