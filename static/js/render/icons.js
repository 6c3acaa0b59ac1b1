// A few line icons as inline SVG (stroke = currentColor); nothing is fetched.

import { s } from "../browser/dom.js";

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
  sound: "M4 9h4l5-4v14l-5-4H4Z M16.5 8.5a5 5 0 0 1 0 7 M19 6a8.5 8.5 0 0 1 0 12",
  mute: "M4 9h4l5-4v14l-5-4H4Z M17 9.5l5 5 M22 9.5l-5 5",
  trophy: "M8 4h8v6a4 4 0 0 1-8 0Z M8 6H4a3 3 0 0 0 4 4 M16 6h4a3 3 0 0 1-4 4 M12 14v4 M8 20h8",
  flag: "M5 21V4 M5 4h12l-3 4 3 4H5",
  handshake: "M3 12l4-4 4 2 3-2 4 4 M7 8l-4 4 6 6 2-2 M11 16l2 2 6-6",
  bell: "M6 16V11a6 6 0 0 1 12 0v5l2 2H4Z M10 20a2 2 0 0 0 4 0",
  "bell-off": "M6 16V11a6 6 0 0 1 12 0v5l2 2H4Z M10 20a2 2 0 0 0 4 0 M3 3l18 18",
  zoom: "M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13Z M15.5 15.5 21 21 M10.5 7.5v6 M7.5 10.5h6",
  check: "M4 12.5l5 5L20 6.5",
};

export function icon(name, label) {
  return s("svg", {
    class: `icon icon-${name}`, viewBox: "0 0 24 24", "aria-hidden": label ? null : "true",
    role: label ? "img" : null, "aria-label": label || null, focusable: "false",
  }, s("path", { d: PATHS[name] || "" }));
}
