// What an event changes in the game page beyond the room itself (pure): the new mark a
// rematch gives this seat, what lifecycle.js must remember that the snapshot does not say
// (the last own draw offer, the takeback backoff after declines), and page bits an event
// makes stale (a confirmation, a refused command's error, the replayed move).

/** The partial page state to merge after `ev` turned `s.room` into `room` at server `now`. */
export function afterEvent(s, ev, room, now) {
  const me = s.role === "player" ? s.mark : null;
  const memo = s.memo || {};
  const change = {};
  if (ev.type === "draw_offered" && ev.by === me) {
    change.memo = { ...memo, drawOfferedAt: room.moves.filter((m) => m.mark === me).length };
  } else if (ev.type === "takeback_declined" && s.room.offers.takeback === me) {
    const declines = (memo.takebackDeclines || 0) + 1;
    const backoff = (room.settings && room.settings.takeback_backoff) || 5;
    change.memo = { ...memo, takebackDeclines: declines, takebackRetryAt: now + backoff * 2 ** (declines - 1) };
  } else if (ev.type === "new_game") {
    change.memo = {};
    change.replay = null;
    change.confirming = null;
    if (me && ev.marks && ev.marks[me]) change.mark = ev.marks[me];
  }
  if (ev.type === "game_over" || (ev.type === "moved" && ev.status === "finished")) change.confirming = null;
  if (ev.type !== "spectators" && ev.type !== "presence") change.actionError = null;
  return change;
}
