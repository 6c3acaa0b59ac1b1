// Ratings as the pages show them: a pool's name in words, a rating with lichess's "?" while
// it is provisional, and a rated game's change per player.

const FAMILIES = { classic: "Classic 3×3", connect4: "Connect Four", gomoku: "Gomoku", "3d": "3D 4×4×4" };
const CLASSES = { untimed: "untimed", blitz: "blitz", rapid: "rapid", correspondence: "correspondence" };

const PEOPLE = Object.keys(FAMILIES).flatMap((family) =>
  Object.keys(CLASSES).map((kind) => `${family}.${kind}`));

/** The pools the server rates (docs/ratings.md), in the order the pages list them: the
 *  people's, then the bot accounts' (the same names behind "bot."). */
export const POOLS = [...PEOPLE, ...PEOPLE.map((pool) => `bot.${pool}`)];

/** "Classic 3×3, blitz" for "classic.blitz", "Bots: Classic 3×3, blitz" for
 *  "bot.classic.blitz" (the id itself for a pool this page does not know). */
export function poolName(pool) {
  const text = String(pool);
  if (text.startsWith("bot.")) return `Bots: ${poolName(text.slice(4))}`;
  const [family, kind] = text.split(".");
  return FAMILIES[family] && CLASSES[kind] ? `${FAMILIES[family]}, ${CLASSES[kind]}` : text;
}

/** "1662" or "1662?" (provisional: too few games to be sure). */
export function ratingText(rating, provisional) {
  return `${Math.round(rating)}${provisional ? "?" : ""}`;
}

/** "+162", "−12", "±0". */
export function deltaText(before, after) {
  const delta = Math.round(after) - Math.round(before);
  if (delta === 0) return "±0";
  return delta > 0 ? `+${delta}` : `−${-delta}`;
}

/** "about 12 more games", or "1 more game". */
export const gamesToGo = (n) => `${n === 1 ? "1 more game" : `about ${n} more games`}`;

/** "Rating, Classic 3×3, blitz: Ada 1500 → 1662? (+162) · Bob 1500 → 1338? (−162)", for
 *  the game on the board when its change is known; null otherwise. A provisional rating
 *  moves by a lot, so the note then says why: "Provisional ratings move fast for the first
 *  games: Ada is ranked after about 12 more games, Bob after about 12 more games." */
export function ratingNote(room, names) {
  const change = room.rating_change;
  if (!room.rated || !change || change.game_number !== room.game_number || !change.rating_change) return null;
  const changes = Object.entries(change.rating_change);
  const parts = changes.map(([mark, c]) =>
    `${names(mark)} ${Math.round(c.before)} → ${ratingText(c.after, c.provisional)} (${deltaText(c.before, c.after)})`);
  const note = `Rating, ${poolName(change.pool)}: ${parts.join(" · ")}`;
  const fast = changes.filter(([, c]) => c.provisional);
  if (!fast.length) return note;
  const counts = fast.filter(([, c]) => Number.isInteger(c.games_to_rank) && c.games_to_rank > 0)
    .map(([mark, c]) => `${names(mark)} is ranked after ${gamesToGo(c.games_to_rank)}`);
  return `${note}. Provisional ratings (?) move fast for the first games${counts.length ? `: ${counts.join(", ")}` : ""}.`;
}

/** The page of a pool's leaderboard: /leaderboards/classic/blitz (a path whose last part has
 *  no dot, which the server answers with the page, not as a file). */
export const leaderboardPath = (pool) => `/leaderboards/${String(pool).replaceAll(".", "/")}`;
