// Plain words for a move the server refused, told from the player's side: what happened
// to the move and why, with the cell named as the board labels it ("b2"). The server's
// own text (for programs and logs: 0-based rows and columns, versions) is not repeated.

const WHY = {
  occupied: (where) => `Someone played ${where} just before your move arrived.`,
  column_full: () => "That column filled up just before your move arrived.",
  not_your_turn: () => "It was no longer your turn.",
  stale_version: () => "The board changed before your move arrived. Look again, then play.",
  game_over: () => "The game had already ended.",
  out_of_time: () => "Your time had run out.",
  not_started: () => "The game has not started yet: wait for your opponent.",
  not_a_player: () => "Only the players can move; you are watching.",
  rate_limited: () => "Too many moves at once. Wait a moment, then play.",
  out_of_bounds: () => "This page sent a move the server could not place. Reload the page.",
  malformed_move: () => "This page sent a move the server could not read. Reload the page.",
};

/** {title, message} for the refused move at `where` ("b2"). */
export function refusedMove(code, where, serverMessage) {
  const why = WHY[code];
  return {
    title: `${where} was not played`,
    message: why ? why(where) : sentence(serverMessage),
  };
}

function sentence(text) {
  const s = String(text || "The server refused it").trim();
  return s.charAt(0).toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? "" : ".");
}
