// Keyboard movement across the board's cells (pure): arrows within a layer, Home/End
// to the ends of a row, PageUp/PageDown between the layers of a 3D board.

export function nextCell(key, { row, col, layer }, rules) {
  const clamp = (v, hi) => Math.max(0, Math.min(hi, v));
  const layers = rules.layers || 1;
  switch (key) {
    case "ArrowUp": return { row: clamp(row - 1, rules.rows - 1), col, layer };
    case "ArrowDown": return { row: clamp(row + 1, rules.rows - 1), col, layer };
    case "ArrowLeft": return { row, col: clamp(col - 1, rules.cols - 1), layer };
    case "ArrowRight": return { row, col: clamp(col + 1, rules.cols - 1), layer };
    case "Home": return { row, col: 0, layer };
    case "End": return { row, col: rules.cols - 1, layer };
    case "PageUp": return { row, col, layer: clamp(layer + 1, layers - 1) };
    case "PageDown": return { row, col, layer: clamp(layer - 1, layers - 1) };
    default: return null;
  }
}
