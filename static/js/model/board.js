// The board as data: parsed from the server's text form, or rebuilt from the move
// history for the replay. Positions are arrays [layer][row][col] of a mark or null.

/** The server's board text ("X.O/.X./..O", layers bottom to top joined by "|"). */
export function parseBoard(text, rules) {
  const layers = String(text).split("|");
  const out = [];
  for (let l = 0; l < (rules.layers || 1); l++) {
    const rows = (layers[l] || "").split("/");
    const grid = [];
    for (let r = 0; r < rules.rows; r++) {
      const line = rows[r] || "";
      const row = [];
      for (let c = 0; c < rules.cols; c++) {
        const ch = line[c];
        row.push(ch && ch !== "." ? ch : null);
      }
      grid.push(row);
    }
    out.push(grid);
  }
  return out;
}

export function emptyPosition(rules) {
  return Array.from({ length: rules.layers || 1 }, () =>
    Array.from({ length: rules.rows }, () => Array(rules.cols).fill(null)));
}

/** The position after the first `ply` moves of the history (for the replay). */
export function positionAt(moves, rules, ply) {
  const pos = emptyPosition(rules);
  for (const m of moves.slice(0, ply)) {
    const layer = pos[m.layer || 0];
    if (layer && layer[m.row] && m.col >= 0 && m.col < rules.cols) layer[m.row][m.col] = m.mark;
  }
  return pos;
}

/**
 * Where a gravity drop aimed at (row, col, layer) would land in `pos`, for the hover
 * preview only (the server decides where a piece really lands): the lowest free row of
 * the column on 2D boards, the lowest free layer of the pillar in 3D; null when full.
 */
export function landing(pos, rules, { row, col, layer }) {
  if (!rules.gravity) return pos[layer]?.[row]?.[col] === null ? { row, col, layer } : null;
  if ((rules.layers || 1) > 1) {
    for (let l = 0; l < rules.layers; l++) if (pos[l][row][col] === null) return { row, col, layer: l };
    return null;
  }
  for (let r = rules.rows - 1; r >= 0; r--) if (pos[0][r][col] === null) return { row: r, col, layer: 0 };
  return null;
}

export const cellKey = ({ row, col, layer }) => `${layer || 0}:${row}:${col}`;

/** The server's text form of a position (the inverse of parseBoard). */
export function boardText(pos) {
  return pos.map((grid) => grid.map((cells) => cells.map((v) => v || ".").join("")).join("/")).join("|");
}
