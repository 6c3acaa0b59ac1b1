// Entry point: picks the page from the URL. /r/{id} plays, /r/{id}/watch watches,
// / is the lobby; anything else gets a short "not found" with a way back.

import { fill, h } from "./dom.js";
import { startGame } from "./game-page.js";
import { startLobby } from "./lobby-page.js";

export function route(pathname) {
  const m = pathname.match(/^\/r\/([^/]+)(\/watch)?\/?$/);
  if (m) return { page: "game", roomId: decodeURIComponent(m[1]), want: m[2] ? "spectator" : "player" };
  if (pathname === "/" || pathname === "/index.html") return { page: "lobby" };
  return { page: "missing" };
}

const app = document.getElementById("app");
const where = route(location.pathname);
document.body.dataset.page = where.page;
if (where.page === "game") startGame(app, where.roomId, where.want);
else if (where.page === "lobby") startLobby(app);
else {
  fill(app, h("section", { class: "card missing" },
    h("h1", {}, "Page not found"),
    h("p", {}, "There is nothing at this address."),
    h("a", { class: "button primary", href: "/" }, "Go to the lobby")));
}
