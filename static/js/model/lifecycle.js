// What a seated player may ask for right now (resign, abort, draws, takebacks, rematch,
// claims), derived from what the server reported: status, moves, offers, presence and
// grace deadlines, clocks, bot seats. Pure. It only decides which buttons to show; the
// server still judges every command (and its error is shown when it refuses).
//
// `memo` is what this client saw happen and the snapshot does not say:
//   {drawOfferedAt: number of my moves when I last offered a draw,
//    takebackRetryAt: server time before which my next takeback request is too soon}

export function opponents(room, me) {
  return (room.players || []).filter((p) => p.mark !== me);
}

/** The seat an absent opponent may be claimed against now (or soon): {mark, name, at, left, now}. */
export function absence(room, me, now) {
  if (!me || room.status !== "playing") return null;
  const gone = opponents(room, me)
    .filter((p) => !p.connected && !p.bot && typeof p.claimable_at === "number")
    .sort((a, b) => a.claimable_at - b.claimable_at)[0];
  if (!gone) return null;
  return { mark: gone.mark, name: gone.name, at: gone.claimable_at, left: Boolean(gone.left),
    now: now >= gone.claimable_at };
}

/** The opponent whose clock ran out while the server has not ended the game yet. */
function flagged(room, me, now) {
  const clock = room.clock;
  if (!me || room.status !== "playing" || !clock || !clock.running || clock.running === me) return null;
  return typeof clock.deadline === "number" && now >= clock.deadline + 0.5 ? clock.running : null;
}

export function possible(room, me, now, memo = {}) {
  const none = {
    abort: false, resign: false, offerDraw: false, answerDraw: false, takeback: false,
    answerTakeback: false, rematch: false, claimWin: false, claimDraw: false, claimOnTime: false,
  };
  if (!room || !me || !room.players.some((p) => p.mark === me)) return none;
  const offers = room.offers || {};
  const playing = room.status === "playing";
  const vsBot = opponents(room, me).some((p) => p.bot);
  const movers = new Set(room.moves.map((m) => m.mark));
  const myMoves = room.moves.filter((m) => m.mark === me).length;
  // A tournament game has no abort (it would score against the side to move) and no rematch
  // (one game a pairing): it is played or resigned from its first move.
  const tournament = Boolean(room.tournament);
  const counts = tournament || Boolean(room.rated);
  const abort = !tournament && (room.status === "waiting" || (playing && movers.size < room.seats));
  const gone = absence(room, me, now);
  const overdue = flagged(room, me, now);
  return {
    abort,
    resign: playing && !abort,
    offerDraw: playing && !abort && !vsBot && !offers.draw && !offers.takeback &&
      !(typeof memo.drawOfferedAt === "number" && myMoves <= memo.drawOfferedAt),
    answerDraw: playing && Boolean(offers.draw) && offers.draw !== me,
    // a game that counts (rated, or a tournament's) takes nothing back: the server refuses
    takeback: playing && !counts && myMoves > 0 && !offers.takeback && !offers.draw &&
      !(typeof memo.takebackRetryAt === "number" && now < memo.takebackRetryAt),
    answerTakeback: playing && Boolean(offers.takeback) && offers.takeback !== me,
    rematch: room.status === "finished" && !tournament && !(offers.rematch || []).includes(me),
    claimWin: Boolean(gone && gone.now),
    claimDraw: Boolean(gone && gone.now),
    claimOnTime: Boolean(overdue),
  };
}
