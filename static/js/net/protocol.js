// The wire protocol v1 (docs/protocol.md): the shapes of client messages and the
// names of what the server sends. Nothing here touches the network.

export const PROTOCOL_VERSION = 1;

/** Events carry a version and go to every connection of a room. */
export const EVENT_TYPES = Object.freeze([
  "player_joined", "presence", "spectators", "moved",
  "game_over", "draw_offered", "draw_declined", "takeback_offered", "takeback_declined",
  "undone", "rematch_offered", "new_game",
]);

/** Replies go to the one connection that asked; `chat` lines go to one audience. */
export const REPLY_TYPES = Object.freeze(["welcome", "state", "move_ok", "ack", "pong", "error", "chat"]);

/** The game lifecycle's commands (protocol.md, "Client → server messages"). */
export const COMMAND_TYPES = Object.freeze([
  "resign", "abort", "offer_draw", "accept_draw", "decline_draw", "takeback",
  "accept_takeback", "decline_takeback", "rematch", "claim", "chat", "leave",
]);

/** Close codes after which reconnecting cannot help (protocol.md, "Close codes"). */
export const FATAL_CLOSE_CODES = Object.freeze(new Set([4004]));

export function joinMessage({ as, name, token, joinKey, lastVersion, player }) {
  const msg = { type: "join", as, protocol: PROTOCOL_VERSION };
  if (name) msg.name = name;
  if (token) msg.token = token;
  else if (as === "player") {
    if (joinKey) msg.join_key = joinKey; // a seat-taking join: repeatable
    if (player) msg.player = { id: player.id, secret: player.secret }; // the seat links to it
  }
  if (Number.isInteger(lastVersion)) msg.last_version = lastVersion;
  return msg;
}

/**
 * A move against `version`. With gravity on a 2D board only the column is sent
 * (the server decides where the piece lands); on 3D boards with gravity, row and col.
 */
export function moveMessage({ row, col, layer }, rules, version, moveId) {
  const msg = { type: "move", col, version, move_id: moveId };
  const is3d = rules.layers > 1;
  if (!(rules.gravity && !is3d)) msg.row = row;
  if (is3d && !rules.gravity) msg.layer = layer;
  return msg;
}

/** A spectator's guess of the next move (protocol.md, `guess`): the cell as a move names it. */
export function guessMessage(cell, rules, version, id) {
  const { move_id: _, ...fields } = moveMessage(cell, rules, version, id);
  return { ...fields, type: "guess", id };
}

export const syncMessage = (id) => ({ type: "sync", id });

/** A lifecycle command with its id (echoed as `ref` in the ack or error): `extra` adds
 *  the fields some need, e.g. {result: "win"} for `claim`, {text} for `chat`. */
export function commandMessage(type, id, extra = {}) {
  if (!COMMAND_TYPES.includes(type)) throw new Error(`not a command: ${type}`);
  return { type, ...extra, id };
}
export const pingMessage = (id) => ({ type: "ping", id });

let counter = 0;
const session = Math.random().toString(36).slice(2, 8);

/** A client-chosen id, unique per page (and so per seat and game). */
export function newId(prefix) {
  counter += 1;
  return `${prefix}-${session}-${Date.now().toString(36)}-${counter}`;
}

/** A short headline for an error code; the server's own message is always shown too. */
const ERROR_TITLES = {
  bad_message: "The server did not understand that",
  unknown_type: "Not supported by this server",
  unsupported_protocol: "This page is out of date",
  too_large: "Too large",
  rate_limited: "Slow down",
  not_joined: "Not joined yet",
  already_joined: "Already joined",
  room_not_found: "No such game",
  room_full: "Every seat is taken",
  bad_token: "Your seat could not be resumed",
  not_a_player: "Spectators cannot move",
  not_a_spectator: "Players do not guess",
  guesses_closed: "Guesses are off in this game",
  not_started: "The game has not started",
  not_your_turn: "Not your turn",
  out_of_bounds: "Off the board",
  occupied: "That cell is taken",
  column_full: "That column is full",
  malformed_move: "That move is not valid here",
  game_over: "The game is over",
  stale_version: "The board changed — try again",
  out_of_time: "Out of time",
  not_finished: "The game is not over yet",
  cannot_abort: "Too late to abort — resign instead",
  offer_pending: "Already asked",
  no_offer: "That offer is gone",
  too_soon: "Not yet",
  nothing_to_take_back: "Nothing to take back",
  bot_opponent: "Bots do not take draws",
  not_claimable: "Not claimable yet",
  chat_too_long: "That message is too long",
  invalid_options: "Those options cannot be used",
  analysis_unavailable: "No analysis for this board",
  invalid_position: "That position cannot be analysed",
  busy: "The server is busy — try again",
  invalid_rules: "Those rules cannot be played",
  not_found: "Not found",
  origin_not_allowed: "This page may not use this server",
  unsupported_media_type: "The request was not sent as JSON",
  unavailable: "The server is unavailable",
  internal_error: "Something went wrong on the server",
};

export function errorTitle(code) {
  return ERROR_TITLES[code] || "Error";
}
