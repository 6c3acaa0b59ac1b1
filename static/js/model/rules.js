// Rules as the server sends them ({rows, cols, k, gravity, misere, players, layers,
// early_draw}): human labels, presets for the lobby, and cell names.

export const MARKS = Object.freeze(["X", "O", "A", "B"]);
export const MAX_SIDE = 19;
export const MAX_LAYERS = 8;

/** Presets the lobby offers; "custom" leaves the fields to the player. */
export const PRESETS = Object.freeze([
  { id: "classic", label: "Classic", hint: "3×3, three in a row",
    rules: { rows: 3, cols: 3, k: 3, gravity: false, misere: false, layers: 1, players: 2 } },
  { id: "connect4", label: "Connect Four", hint: "6×7, gravity, four in a row",
    rules: { rows: 6, cols: 7, k: 4, gravity: true, misere: false, layers: 1, players: 2 } },
  { id: "gomoku", label: "Gomoku", hint: "15×15, five in a row",
    rules: { rows: 15, cols: 15, k: 5, gravity: false, misere: false, layers: 1, players: 2 } },
  { id: "cube", label: "3D 4×4×4", hint: "four stacked layers, four in a row",
    rules: { rows: 4, cols: 4, k: 4, gravity: false, misere: false, layers: 4, players: 2 } },
  { id: "misere", label: "Misère", hint: "3×3, make three and you lose",
    rules: { rows: 3, cols: 3, k: 3, gravity: false, misere: true, layers: 1, players: 2 } },
]);

export function is3d(rules) {
  return (rules.layers || 1) > 1;
}

/** "3×3", "6×7", "4×4×4". */
export function shape(rules) {
  return `${rules.rows}×${rules.cols}` + (is3d(rules) ? `×${rules.layers}` : "");
}

/** A short name for the variant: a preset's label when the rules match one. */
export function variantName(rules) {
  for (const preset of PRESETS) {
    const r = preset.rules;
    if (r.rows === rules.rows && r.cols === rules.cols && r.k === rules.k &&
        r.gravity === Boolean(rules.gravity) && r.misere === Boolean(rules.misere) &&
        r.layers === (rules.layers || 1) && (rules.players || 2) === 2) {
      return preset.label;
    }
  }
  return shape(rules);
}

/** "3×3 · 3 in a row · gravity · misère · 3 players" (without "3×3" when `size` is false). */
export function describe(rules, { size = true } = {}) {
  const parts = [size ? shape(rules) : null, `${rules.k} in a row`].filter(Boolean);
  if (rules.gravity) parts.push("gravity");
  if (rules.misere) parts.push("misère");
  if ((rules.players || 2) > 2) parts.push(`${rules.players} players`);
  if (rules.early_draw) parts.push("early draw");
  return parts.join(" · ");
}

/** Column letters a, b, c ... s (19 columns at most). */
export function colLetter(col) {
  return String.fromCharCode(97 + col);
}

/** The short name shown in the move list: "b3" (column b, row 3 from the top), "L2 b3" in 3D. */
export function cellName({ row, col, layer }, rules) {
  const base = `${colLetter(col)}${row + 1}`;
  return is3d(rules) ? `L${(layer || 0) + 1} ${base}` : base;
}

/** The spoken name: "row 3, column 2" (and "layer 2, " first in 3D), 1-based. */
export function cellSpoken({ row, col, layer }, rules) {
  const base = `row ${row + 1}, column ${col + 1}`;
  return is3d(rules) ? `layer ${(layer || 0) + 1}, ${base}` : base;
}
