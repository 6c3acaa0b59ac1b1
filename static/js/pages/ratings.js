// The rating pages: a pool's leaderboard (/leaderboards/{family}/{class}: the top players, and where
// this browser's identity stands) and a player's page (/p/{id}: ratings per pool with their
// history, and recent rated games with their records).

import { getLeaderboard, getPlayer } from "../net/api.js";
import { fill, h } from "../browser/dom.js";
import { POOLS, gamesToGo, leaderboardPath, poolName, ratingText } from "../model/ratings.js";
import { loadIdentity } from "../browser/storage.js";
import { botMark } from "../render/bot-mark.js";

const when = (seconds) => new Date(seconds * 1000).toLocaleString();
const playerLink = (id, name, bot = false) =>
  h("span", {}, h("a", { href: `/p/${encodeURIComponent(id)}` }, name), botMark(bot));

function problem(err) {
  return h("p", { class: "list-error", role: "alert" }, err.message || "the server cannot be reached");
}

function boardTable(rows, mine) {
  if (!rows.length) return h("p", { class: "empty-note" }, "No established ratings here yet.");
  return h("table", { class: "ratings-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"),
      h("th", { scope: "col" }, "Rating"), h("th", { scope: "col" }, "Games"))),
    h("tbody", {}, rows.map((r) => h("tr", { class: r.player_id === mine ? "mine" : null },
      h("td", {}, String(r.rank)), h("td", {}, playerLink(r.player_id, r.name, r.bot)),
      h("td", {}, ratingText(r.rating, r.provisional)), h("td", {}, String(r.games))))));
}

/** The provisional players, apart from the ranked ones: how far each is from a rank. */
function provisionalTable(rows, mine) {
  return h("section", { class: "provisional", "aria-labelledby": "provisional-title" },
    h("h2", { id: "provisional-title" }, "Provisional"),
    h("p", { class: "hint" }, "Not ranked yet: a rating joins the board once it is sure enough, after about 13 games for a newcomer."),
    h("table", { class: "ratings-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Rating"),
        h("th", { scope: "col" }, "Games"), h("th", { scope: "col" }, "Ranked after"))),
      h("tbody", {}, rows.map((r) => h("tr", { class: r.player_id === mine ? "mine" : null, dataset: { player: r.player_id } },
        h("td", {}, playerLink(r.player_id, r.name, r.bot)), h("td", {}, ratingText(r.rating, r.provisional)),
        h("td", {}, String(r.games)), h("td", { class: "to-go" }, gamesToGo(r.games_to_rank)))))));
}

/** /leaderboards/{family}/{class} (the first pool when none is named). */
export async function startLeaderboard(app, pool) {
  const chosen = POOLS.includes(pool) ? pool : POOLS[0];
  const mine = loadIdentity()?.id;
  const picker = h("nav", { class: "pool-picker", "aria-label": "Rating pools" },
    POOLS.map((p) => h("a", { href: leaderboardPath(p), "aria-current": p === chosen ? "page" : null }, poolName(p))));
  const body = h("div", { class: "board-body" }, h("p", { class: "empty-note" }, "Loading…"));
  fill(app, h("section", { class: "card ratings-card", "aria-labelledby": "board-title" },
    h("h1", { id: "board-title" }, `Leaderboard: ${poolName(chosen)}`), picker, body));
  let board;
  try {
    board = await getLeaderboard(chosen, mine);
  } catch (err) {
    if (err.code !== "player_not_found" || !mine) return fill(body, problem(err));
    board = await getLeaderboard(chosen).catch((again) => ({ error: again }));
    if (board.error) return fill(body, problem(board.error));
  }
  const around = board.around;
  fill(body,
    boardTable(board.top || [], mine),
    board.provisional && board.provisional.length ? provisionalTable(board.provisional, mine)
      : h("p", { class: "hint" }, "Provisional ratings (shown with ?) join the board once they are sure enough."),
    around ? h("section", { class: "around", "aria-labelledby": "around-title" },
      h("h2", { id: "around-title" }, around.rank
        ? `You are #${around.rank} (${ratingText(around.rating, around.provisional)})`
        : `Your rating: ${ratingText(around.rating, around.provisional)} (provisional: ranked after ${gamesToGo(around.games_to_rank)})`),
      around.neighbours && around.neighbours.length ? boardTable(around.neighbours, mine) : null) : null);
  return undefined;
}

/** /p/{id}: one player's ratings and recent rated games. */
export async function startPlayer(app, playerId) {
  const body = h("div", {}, h("p", { class: "empty-note" }, "Loading…"));
  const title = h("h1", { id: "player-title" }, "Player");
  fill(app, h("section", { class: "card ratings-card", "aria-labelledby": "player-title" }, title, body));
  let player;
  try {
    player = await getPlayer(playerId);
  } catch (err) {
    return fill(body, problem(err));
  }
  title.textContent = player.name;
  const ratings = Object.entries(player.ratings || {});
  const games = player.recent_games || [];
  fill(body,
    h("p", { class: "hint" }, `Player ${player.player_id} · since ${when(player.created)}`),
    ratings.length ? h("div", { class: "pool-ratings" }, ratings.map(([pool, r]) =>
      h("section", { class: "pool-rating", "aria-label": poolName(pool) },
        h("h2", {}, h("a", { href: leaderboardPath(pool) }, poolName(pool))),
        h("p", { class: "rating-big" }, ratingText(r.rating, r.provisional)),
        h("p", { class: "hint" }, `${r.games} ${r.games === 1 ? "game" : "games"} · deviation ${Math.round(r.deviation)}`),
        r.history && r.history.length ? h("ol", { class: "rating-history", "aria-label": "Rating history, newest first" },
          r.history.map((e) => h("li", {}, `${when(e.at)}: ${Math.round(e.rating)}`))) : null)))
      : h("p", { class: "empty-note" }, "No rated games yet."),
    games.length ? h("section", { "aria-labelledby": "games-title" },
      h("h2", { id: "games-title" }, "Recent rated games"),
      h("ul", { class: "recent-games" }, games.map((g) => h("li", {},
        `${when(g.at)} · ${poolName(g.pool)} · ${Math.round(g.rating)} `,
        h("a", { href: `/r/${encodeURIComponent(g.room_id)}/watch` }, "room"), " · ",
        h("a", { href: g.record, download: "" }, "record"))))) : null);
  return undefined;
}
