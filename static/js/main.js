// Entry point: picks the page from the URL. /r/{id} plays, /r/{id}/watch watches,
// /embed/{id} is the viewer other sites frame, / is the lobby, /leaderboards/{family}/{class} ranks a rating pool, /p/{id} shows a player,
// /tournaments lists and creates tournaments, /t/{id} is one; anything else gets a short "not found" with a way back.

import { fill, h } from "./browser/dom.js";
import { startEmbed } from "./pages/embed.js";
import { startGame } from "./pages/game.js";
import { startLobby } from "./pages/lobby.js";
import { startLeaderboard, startPlayer } from "./pages/ratings.js";
import { startTournament } from "./pages/tournament.js";
import { startTournaments } from "./pages/tournaments.js";

export function route(pathname) {
  const m = pathname.match(/^\/r\/([^/]+)(\/watch)?\/?$/);
  if (m) return { page: "game", roomId: decodeURIComponent(m[1]), want: m[2] ? "spectator" : "player" };
  const embed = pathname.match(/^\/embed\/([^/]+)\/?$/);
  if (embed) return { page: "embed", roomId: decodeURIComponent(embed[1]) };
  if (pathname === "/" || pathname === "/index.html") return { page: "lobby" };
  // /leaderboards/classic/blitz, and a bots' pool: /leaderboards/bot/classic/blitz
  const board = pathname.match(/^\/leaderboards(?:\/(bot\/)?([^/.]+)\/([^/.]+))?\/?$/);
  if (board) return { page: "leaderboard", pool: board[2] ? `${board[1] ? "bot." : ""}${board[2]}.${board[3]}` : null };
  const player = pathname.match(/^\/p\/([^/]+)\/?$/);
  if (player) return { page: "player", playerId: decodeURIComponent(player[1]) };
  if (/^\/tournaments(\/new)?\/?$/.test(pathname)) return { page: "tournaments" };
  const tournament = pathname.match(/^\/t\/([^/.]+)\/?$/);
  if (tournament) return { page: "tournament", tournamentId: decodeURIComponent(tournament[1]) };
  return { page: "missing" };
}

const app = document.getElementById("app");
const where = route(location.pathname);
document.body.dataset.page = where.page;
if (where.page === "game") startGame(app, where.roomId, where.want);
else if (where.page === "embed") startEmbed(app, where.roomId);
else if (where.page === "lobby") startLobby(app);
else if (where.page === "leaderboard") startLeaderboard(app, where.pool);
else if (where.page === "player") startPlayer(app, where.playerId);
else if (where.page === "tournaments") startTournaments(app);
else if (where.page === "tournament") startTournament(app, where.tournamentId);
else {
  fill(app, h("section", { class: "card missing" },
    h("h1", {}, "Page not found"),
    h("p", {}, "There is nothing at this address."),
    h("a", { class: "button primary", href: "/" }, "Go to the lobby")));
}
