// The marks as small SVG drawings (no fonts, no images to fetch): X a cross, O a ring,
// A a triangle, B a square. Colour comes from CSS (currentColor, one per mark).

import { s } from "../browser/dom.js";

const DRAW = {
  X: () => [s("path", { d: "M22 22 L78 78 M78 22 L22 78" })],
  O: () => [s("circle", { cx: 50, cy: 50, r: 29 })],
  A: () => [s("path", { d: "M50 20 L82 76 L18 76 Z" })],
  B: () => [s("rect", { x: 24, y: 24, width: 52, height: 52, rx: 6 })],
};

export function piece(mark, extra = "") {
  const draw = DRAW[mark] || (() => [s("text", { x: 50, y: 66, "text-anchor": "middle" }, mark)]);
  return s("svg", {
    class: `piece mark-${mark} ${extra}`.trim(),
    viewBox: "0 0 100 100",
    "aria-hidden": "true",
    focusable: "false",
  }, draw());
}
