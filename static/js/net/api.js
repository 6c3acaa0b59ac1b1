// The HTTP side of the protocol: create a room, list public rooms, read one room, the
// guest identities (create, read, rename), their Web Push subscriptions, the leaderboards and
// the tournaments.
// Every failure becomes an ApiError carrying the server's code, message and field. Each
// answer's Date header also tells how far the local clock is off the server's (serverNow).

export class ApiError extends Error {
  constructor(status, { code, message, field } = {}) {
    super(message || `request failed (${status})`);
    this.status = status;
    this.code = code || (status === 0 ? "network" : "http_error");
    this.field = field || null;
  }
}

// Local minus server seconds, from the last answer's Date header. The header counts whole
// seconds, so a difference under SKEW_FLOOR is the header's rounding and the trip, not a
// wrong clock: only a clock set clearly wrong is corrected.
const SKEW_FLOOR = 2;
let skew = 0;

function noteDate(response) {
  const date = Date.parse(response.headers?.get("date") || "");
  if (!Number.isFinite(date)) return;
  const seconds = (Date.now() - date) / 1000 - 0.5; // the header cuts off up to a second
  skew = Math.abs(seconds) < SKEW_FLOOR ? 0 : seconds;
}

/** The server's time now in seconds since the epoch, as near as its answers tell (for a
 *  countdown to a time the server set, such as an arena's `ends_at`). */
export const serverNow = () => Date.now() / 1000 - skew;

async function request(method, path, body, signal, headers = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body ? { "content-type": "application/json", ...headers } : headers,
      body: body ? JSON.stringify(body) : undefined,
      cache: "no-store",
      signal,
    });
  } catch (err) {
    if (err && err.name === "AbortError") throw err;
    throw new ApiError(0, { code: "network", message: "the server cannot be reached" });
  }
  noteDate(response);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, data && typeof data === "object" ? data : {
      message: `the server answered ${response.status} ${response.statusText}`.trim(),
    });
  }
  return data;
}

/** POST /api/rooms → {room_id, public, rules, version, links, bot, time_control}.
 *  `options`: {bot: "bot:perfect", bot_mark: "O", time_control: {initial, increment}}. */
export const createRoom = (rules, isPublic, options = {}) =>
  request("POST", "/api/rooms", { rules, public: isPublic, ...options });

/** POST /api/quickplay → {room_id, mark, token, matched, rules, time_control, links}.
 *  `joinKey`: the same for every retry of one request (a lost answer: the same seat again);
 *  `player`: the guest identity ({id, secret}) the seat links to. */
export const quickPlay = (rules, timeControl, name, joinKey, player) =>
  request("POST", "/api/quickplay", {
    rules, time_control: timeControl || null, ...(name ? { name } : {}), ...(joinKey ? { join_key: joinKey } : {}),
    ...(player ? { player: { id: player.id, secret: player.secret } } : {}),
  });

/** POST /api/analysis → {board, turn, over, proven, cells: [{row, col, layer, value, moves_to_end, score}]}. */
export const analyse = (rules, board, signal) => request("POST", "/api/analysis", { rules, board }, signal);

/** GET /api/rooms → [{room_id, rules, status, players, seats, spectators, version}]. */
export const listRooms = async () => (await request("GET", "/api/rooms")).rooms || [];

/** GET /api/rooms/{id} → the snapshot. */
export const getRoom = (roomId) => request("GET", `/api/rooms/${encodeURIComponent(roomId)}`);

/** POST /api/players → {player_id, secret, name, created}: a new guest identity. */
export const createPlayer = (name) => request("POST", "/api/players", name ? { name } : {});

/** GET /api/players/{id} → {player_id, name, created}. */
export const getPlayer = (id) => request("GET", `/api/players/${encodeURIComponent(id)}`);

/** PATCH /api/players/{id} with the secret → the public view with the new name. */
export const renamePlayer = (id, secret, name) =>
  request("PATCH", `/api/players/${encodeURIComponent(id)}`, { name }, undefined, {
    authorization: `Bearer ${secret}`,
  });

/** GET /api/players/{id}/games with the secret → {player_id, now, games: [{room_id, mark,
 *  your_turn, deadline, time_left, opponents, ...}]}: the correspondence games, its move first. */
export const getPlayerGames = (id, secret) =>
  request("GET", `/api/players/${encodeURIComponent(id)}/games`, undefined, undefined, {
    authorization: `Bearer ${secret}`,
  });

/** The server's VAPID public key (base64url), which a browser subscribes to Web Push with. */
export const getPushKey = async () => (await request("GET", "/api/push/key")).public_key;

/** Keep this browser's push subscription (`PushSubscription.toJSON()`) for the identity. */
export const subscribePush = (id, secret, subscription) =>
  request("POST", `/api/players/${encodeURIComponent(id)}/push`, subscription, undefined, {
    authorization: `Bearer ${secret}`,
  });

/** Forget the identity's subscription at `endpoint`. */
export const unsubscribePush = (id, secret, endpoint) =>
  request("DELETE", `/api/players/${encodeURIComponent(id)}/push`, { endpoint }, undefined, {
    authorization: `Bearer ${secret}`,
  });

/** GET /api/bots → the bot accounts online now [{player_id, name, created, bot}]. */
export const listBots = async () => (await request("GET", "/api/bots")).bots || [];

/** POST /api/bots/{id}/challenge → {challenge_id, room_id, mark, token, expires_at, rated}:
 *  a room made with our seat; the bot accepts (it joins) or declines (the game is aborted). */
export const challengeBot = (botId, rules, timeControl, name, player) =>
  request("POST", `/api/bots/${encodeURIComponent(botId)}/challenge`, {
    rules, time_control: timeControl || null, ...(name ? { name } : {}),
    ...(player ? { player: { id: player.id, secret: player.secret } } : {}),
  });

/** GET /api/leaderboards/{pool} → {pool, top: [{rank, player_id, name, rating, ...}], around}. */
export const getLeaderboard = (pool, around) =>
  request("GET", `/api/leaderboards/${encodeURIComponent(pool)}${around ? `?around=${encodeURIComponent(around)}` : ""}`);

const credentials = (player) => ({ id: player.id, secret: player.secret });

/** POST /api/tournaments → the tournament's view. `options`: {name, kind, duration, rules,
 *  time_control, max_players, public, starts_at}; `player`: the creator's identity ({id, secret}). */
export const createTournament = (options, player) =>
  request("POST", "/api/tournaments", { ...options, player: credentials(player) });

/** GET /api/tournaments → the public tournaments still open or running (lobby lines). */
export const listTournaments = async () => (await request("GET", "/api/tournaments")).tournaments || [];

/** GET /api/tournaments/{id}(?player=ID) → the whole view (with `your_game` for `playerId`). */
export const getTournament = (id, playerId) =>
  request("GET", `/api/tournaments/${encodeURIComponent(id)}${playerId ? `?player=${encodeURIComponent(playerId)}` : ""}`);

/** POST /api/tournaments/{id}/{action} ("join", "withdraw", "start", "bots") for `player`,
 *  with `extra` in the body ({level} for a bot) → the view. */
export const tournamentAction = (id, action, player, extra = {}) =>
  request("POST", `/api/tournaments/${encodeURIComponent(id)}/${action}`, { ...extra, player: credentials(player) });

/** The CSV table of a tournament's standings and games (a download link). */
export const resultsCsvPath = (id) => `/api/tournaments/${encodeURIComponent(id)}/results.csv`;

/** Every game of a tournament as text records (a download link; `play --replay` reads each). */
export const gameRecordsPath = (id) => `/api/tournaments/${encodeURIComponent(id)}/games.txt`;
