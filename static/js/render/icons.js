// A few line icons as inline SVG (stroke = currentColor); nothing is fetched.

import { s } from "../dom.js";

const PATHS = {
  eye: "M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6Z",
  link: "M10 14a5 5 0 0 0 7 0l3-3a5 5 0 0 0-7-7l-1 1 M14 10a5 5 0 0 0-7 0l-3 3a5 5 0 0 0 7 7l1-1",
  first: "M6 5v14 M18 5l-8 7 8 7Z",
  prev: "M15 5l-8 7 8 7",
  next: "M9 5l8 7-8 7",
  last: "M18 5v14 M6 5l8 7-8 7Z",
  plus: "M12 5v14 M5 12h14",
  back: "M19 12H5 M11 6l-6 6 6 6",
  refresh: "M20 12a8 8 0 1 1-2.3-5.6 M20 4v5h-5",
  close: "M6 6l12 12 M18 6 6 18",
  live: "M12 12m-3 0a3 3 0 1 0 6 0a3 3 0 1 0-6 0",
};

export function icon(name, label) {
  return s("svg", {
    class: `icon icon-${name}`, viewBox: "0 0 24 24", "aria-hidden": label ? null : "true",
    role: label ? "img" : null, "aria-label": label || null, focusable: "false",
  }, s("path", { d: PATHS[name] || "" }));
}
